package io.mosaic.trino.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped traces are exactly what the generator derives from Trino's plans today. To regenerate
 * after a Trino upgrade: {@code ./mvnw -pl mosaic-trino test -Dtest=TraceGeneratorTest
 * -Dmosaic.updateTraces=true}, then review the diff.
 */
class TraceGeneratorTest {
  private static TraceGenerator generator;

  @BeforeAll
  static void start() throws Exception {
    generator = TraceGenerator.start();
  }

  @AfterAll
  static void stop() {
    generator.close();
  }

  @Test
  void shippedTpchTraceIsTheGeneratedOne(@TempDir Path dir) throws Exception {
    String trace = generator.tpchTrace();
    Path generated = dir.resolve("tpch.trace");
    Files.writeString(generated, trace);
    if (Boolean.getBoolean("mosaic.updateTraces")) {
      Files.writeString(TraceGenerator.TPCH_TRACE, trace);
    }
    assertThat(generated).hasSameTextualContentAs(TraceGenerator.TPCH_TRACE);
  }

  @Test
  void q6ScansOnlyTheLineitemColumnsItReads() {
    // Q6 reads four lineitem columns; a filter column must stay in the scan (no pushdown).
    List<TraceGenerator.Scan> scans = generator.scans(TraceGenerator.tpchQuery(6));
    assertThat(scans)
        .containsExactly(
            new TraceGenerator.Scan(
                "lineitem",
                java.util.Set.of("l_discount", "l_extendedprice", "l_quantity", "l_shipdate")));
  }

  @Test
  void q4KeepsTheFilteredOrderstatusLikeColumns() {
    // Q4 joins orders and lineitem; every scan names standard, prefixed TPC-H columns.
    List<TraceGenerator.Scan> scans = generator.scans(TraceGenerator.tpchQuery(4));
    assertThat(scans).extracting(TraceGenerator.Scan::table).contains("orders", "lineitem");
    assertThat(scans)
        .allSatisfy(
            s -> assertThat(s.columns()).allSatisfy(c -> assertThat(c).matches("[a-z]{1,2}_.+")));
  }
}
