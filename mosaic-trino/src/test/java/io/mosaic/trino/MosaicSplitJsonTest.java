package io.mosaic.trino;

import static org.assertj.core.api.Assertions.assertThat;

import io.airlift.json.JsonCodec;
import io.mosaic.scan.Predicate;
import io.mosaic.scan.ScanRequest;
import io.trino.spi.HostAddress;
import io.trino.spi.SplitWeight;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A split carries its plan's request to the worker through Trino's JSON: the worker executes the
 * request the coordinator planned, predicate, row groups and scan id included, and the hosts the
 * scheduler prefers for it.
 */
class MosaicSplitJsonTest {
  @Test
  void theSplitsRequestSurvivesJson() {
    ScanRequest planned =
        ScanRequest.of(List.of("k", "v"))
            .where(Predicate.of(Predicate.between("k", 3L, 9L), Predicate.eq("v", "x")))
            .rowGroups(2, 7)
            .queryId("query-1")
            .partOf("scan-1");
    MosaicSplit split =
        MosaicSplit.of(
            planned, 1234, SplitWeight.fromProportion(0.5), List.of("dn-2.example", "10.0.0.7"));
    // Trino's own codec, as the coordinator sends splits to workers.
    JsonCodec<MosaicSplit> json = JsonCodec.jsonCodec(MosaicSplit.class);
    MosaicSplit back = json.fromJson(json.toJson(split));
    assertThat(back.request()).isEqualTo(planned);
    assertThat(back.bytes()).isEqualTo(1234);
    assertThat(back.getSplitWeight()).isEqualTo(split.getSplitWeight());
    // The hosts holding its bytes, in rank order, are a preference: any worker may read it.
    assertThat(back.getAddresses())
        .containsExactly(
            HostAddress.fromString("dn-2.example"), HostAddress.fromString("10.0.0.7"));
    assertThat(back.isRemotelyAccessible()).isTrue();
  }
}
