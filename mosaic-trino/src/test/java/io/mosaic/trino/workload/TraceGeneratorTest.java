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
    assertShipped(generator.tpchTrace(), TraceGenerator.TPCH_TRACE, dir);
  }

  @Test
  void shippedTpcdsTraceIsTheGeneratedOne(@TempDir Path dir) throws Exception {
    assertShipped(generator.tpcdsTrace(), TraceGenerator.TPCDS_TRACE, dir);
  }

  private static void assertShipped(String trace, Path shipped, Path dir) throws Exception {
    Path generated = dir.resolve(shipped.getFileName());
    Files.writeString(generated, trace);
    if (Boolean.getBoolean("mosaic.updateTraces")) {
      Files.writeString(shipped, trace);
    }
    assertThat(generated).hasSameTextualContentAs(shipped);
  }

  @Test
  void tpcdsQ03ScansItsThreeTables() {
    // Q3: date_dim x store_sales x item; the filter columns d_moy and i_manufact_id stay in scans.
    List<TraceGenerator.Scan> scans =
        generator.scans(generator.session("tpcds"), TraceGenerator.tpcdsQuery(3));
    assertThat(scans)
        .extracting(TraceGenerator.Scan::table)
        .containsExactlyInAnyOrder("date_dim", "store_sales", "item");
    assertThat(scans)
        .filteredOn(s -> s.table().equals("item"))
        .singleElement()
        .satisfies(s -> assertThat(s.columns()).contains("i_manufact_id", "i_brand_id"));
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
