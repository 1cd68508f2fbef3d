package io.mosaic.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.MosaicException;
import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Cost;
import io.mosaic.config.Latency;
import io.mosaic.config.Link;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Eq. 3 with a shared link (docs/cost-model.md, "Shared links"), by hand.
 *
 * <pre>
 * s3a, s3b: 1 GB/s each, seek 0, uncompressed, both on link "network" of 1.2 GB/s
 * nvme:     2 GB/s, seek 0, on no link
 * t.a 0.6 GB, t.b 0.6 GB, t.c 1 GB
 * scan {a, b}, a on s3a, b on s3b:
 *   Eq. 3 alone:  max(0.6 / 1, 0.6 / 1)   = 0.6 s (two devices read in parallel)
 *   with link:    max(0.6, 0.6, 1.2 / 1.2) = 1.0 s (both share 1.2 GB/s)
 * scan {a, c}, a on s3a, c on nvme: max(0.6, 0.5, link 0.6 / 1.2) = 0.6 s, the link does not bind
 * </pre>
 */
class LinkCostModelTest {
  private static final Offset<Double> EPS = within(1e-9);
  private static final ColumnRef A = new ColumnRef("t", "a");
  private static final ColumnRef B = new ColumnRef("t", "b");
  private static final ColumnRef C = new ColumnRef("t", "c");
  private static final Link NETWORK = new Link("network", Bandwidth.ofMegabytesPerSecond(1200));

  private static DeviceProfile device(String id, double mbps) {
    Bandwidth rate = Bandwidth.ofMegabytesPerSecond(mbps);
    return new DeviceProfile(
        id, Codec.NONE, Latency.ZERO, rate, rate, 1.0, Long.MAX_VALUE, Cost.ofCents(1));
  }

  private static final DeviceProfile S3A = device("s3a", 1000).withLink(Optional.of(NETWORK));
  private static final DeviceProfile S3B = device("s3b", 1000).withLink(Optional.of(NETWORK));
  private static final DeviceProfile NVME = device("nvme", 2000);

  private static CostModel model(List<DeviceProfile> devices) {
    return CostModel.of(
        devices,
        List.of(
            ColumnSize.uncompressed(A, 600_000_000L),
            ColumnSize.uncompressed(B, 600_000_000L),
            ColumnSize.uncompressed(C, 1_000_000_000L)));
  }

  @Test
  void twoDevicesOnOneLinkAreSlowerTogetherThanEquationThreeAlone() {
    CostModel linked = model(List.of(S3A, S3B, NVME));
    CostModel paper =
        model(List.of(S3A.withLink(Optional.empty()), S3B.withLink(Optional.empty()), NVME));
    Placement split = new Placement(Map.of(A, "s3a", B, "s3b", C, "nvme"));
    DistinctScan ab = DistinctScan.of(1, A, B);

    assertThat(paper.scanTime(ab, split)).isCloseTo(0.6, EPS);
    assertThat(linked.scanTime(ab, split)).isCloseTo(1.0, EPS);
    assertThat(linked.links()).containsExactly(NETWORK);
    assertThat(linked.linkTime(S3A, A)).isCloseTo(0.5, EPS);
    assertThat(linked.linkTime(NVME, A)).isZero();

    // Both columns on one S3 device: 1.2 GB at 1 GB/s, slower than the link's 1 s.
    Placement together = new Placement(Map.of(A, "s3a", B, "s3a", C, "nvme"));
    assertThat(linked.scanTime(ab, together)).isCloseTo(1.2, EPS);

    // A device on no link reads beside the link: the slowest of the three terms is s3a's 0.6 s.
    assertThat(linked.scanTime(DistinctScan.of(1, A, C), split)).isCloseTo(0.6, EPS);
  }

  /**
   * With a CPU model of 2 cores decoding 1 GB/s each and 10 ms a scan, {a, b} split decodes 1.2 GB
   * in 0.6 s: Eq. 3's pipeline max(io + cpu / 2, cpu + io / 2) + f is max(1.0 + 0.3, 0.6 + 0.5) +
   * 0.01 = 1.31 s with the link, max(0.6 + 0.3, 0.6 + 0.3) + 0.01 = 0.91 s without.
   */
  @Test
  void withACpuModelTheLinkIsPartOfTheScansIo() {
    CpuModel cpu =
        new CpuModel(
            2, Latency.ofMillis(10), Map.of(Codec.NONE, Bandwidth.ofMegabytesPerSecond(1000)));
    CostModel linked = model(List.of(S3A, S3B, NVME)).withCpu(Optional.of(cpu));
    CostModel paper =
        model(List.of(S3A.withLink(Optional.empty()), S3B.withLink(Optional.empty()), NVME))
            .withCpu(Optional.of(cpu));
    Placement split = new Placement(Map.of(A, "s3a", B, "s3b", C, "nvme"));
    DistinctScan ab = DistinctScan.of(1, A, B);
    assertThat(linked.scanTime(ab, split)).isCloseTo(1.31, EPS);
    assertThat(paper.scanTime(ab, split)).isCloseTo(0.91, EPS);
  }

  @Test
  void devicesOnOneLinkMustAgreeOnItsRate() {
    DeviceProfile other =
        device("s3c", 1000)
            .withLink(Optional.of(new Link("network", Bandwidth.ofMegabytesPerSecond(900))));
    assertThatThrownBy(() -> model(List.of(S3A, other)))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("'s3a' and 's3c' share link 'network' at different rates");
  }
}
