package io.mosaic.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.config.Codec;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.ColumnSize;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ColumnSizesTest {
  private static final String CSV =
      "# sizes\ntable,column,bytes,zstd_bytes,lz4_bytes\nt,a,1000,200,400\nt,b,50,,\n";

  @Test
  void parsesMeasuredAndUnmeasuredCodecs() {
    ColumnSizes sizes = ColumnSizes.parse(CSV, "s.csv");
    ColumnSize a = sizes.columns().get(0);
    assertThat(a.column()).isEqualTo(ColumnRef.parse("t.a"));
    assertThat(a.bytes()).isEqualTo(1000);
    assertThat(a.stored(Codec.ZSTD)).contains(200L);
    assertThat(a.stored(Codec.LZ4)).contains(400L);
    assertThat(sizes.columns().get(1).stored(Codec.ZSTD)).isEmpty();
    assertThat(ColumnSizes.parse(sizes.format(), "again")).isEqualTo(sizes);
  }

  @Test
  void valuesAndTheirKindAreOptionalFieldsThatRoundTripAndScale() {
    String csv =
        "table,column,bytes,zstd_bytes,lz4_bytes,values,variable_width\n"
            + "t,a,1000,200,,125,false\nt,s,3000,,,100,true\n";
    ColumnSizes sizes = ColumnSizes.parse(csv, "s.csv");
    assertThat(sizes.columns().get(0).values()).isEqualTo(125);
    assertThat(sizes.columns().get(0).variableWidth()).isFalse();
    assertThat(sizes.columns().get(1).variableWidth()).isTrue();
    assertThat(sizes.format()).startsWith("table,column,bytes,zstd_bytes,lz4_bytes,values,");
    assertThat(ColumnSizes.parse(sizes.format(), "again")).isEqualTo(sizes);
    assertThat(sizes.scaled(10, Set.of()).columns().get(1).values()).isEqualTo(1000);
    // Without them (the five-field form) the values are not known: the mean decoding rate.
    assertThat(ColumnSizes.parse(CSV, "s.csv").columns().get(0).valuesKnown()).isFalse();
    assertThat(ColumnSizes.parse(CSV, "s.csv").format()).doesNotContain("values");

    assertThatThrownBy(() -> ColumnSizes.parse(csv + "t,b,5,,,1\n", "s.csv"))
        .hasMessageStartingWith("s.csv:4: expected 7 fields");
    assertThatThrownBy(() -> ColumnSizes.parse(csv + "t,b,5,,,1,yes\n", "s.csv"))
        .hasMessageContaining("variable_width must be true (strings, binaries) or false");
    assertThatThrownBy(() -> ColumnSizes.parse(csv + "t,b,5,,,-1,true\n", "s.csv"))
        .hasMessageContaining("values must be a whole number of values >= 0, not \"-1\"");
  }

  @Test
  void scalingKeepsFixedTables() {
    ColumnSizes sizes =
        ColumnSizes.parse(CSV + "nation,n_name,300,100,\n", "s.csv").scaled(30, Set.of("nation"));
    Map<String, Long> bytes =
        sizes.columns().stream()
            .collect(Collectors.toMap(s -> s.column().toString(), ColumnSize::bytes));
    assertThat(bytes).containsEntry("t.a", 30_000L).containsEntry("nation.n_name", 300L);
    assertThat(sizes.columns().get(0).stored(Codec.ZSTD)).contains(6000L);
  }

  @Test
  void shippedTpchSizesCoverAllEightTablesAndScale() {
    ColumnSizes sf1 = ColumnSizes.load("tpch-sf1");
    ColumnSizes sf100 = ColumnSizes.load("tpch-sf100");
    assertThat(sf1.columns().stream().map(s -> s.column().table()).distinct())
        .containsExactlyInAnyOrder(
            "lineitem", "orders", "customer", "part", "partsupp", "supplier", "nation", "region");
    assertThat(sf1.columns()).hasSize(61);
    // zstd beats lz4 and both beat none on the big tables (a measurement, not a typed table).
    for (ColumnSize s : sf1.columns()) {
      if (s.column().table().equals("lineitem") && s.bytes() > 10_000_000) {
        assertThat(s.stored(Codec.ZSTD).orElseThrow()).isLessThan(s.bytes());
      }
    }
    double ratio = (double) sf100.totalBytes() / sf1.totalBytes();
    assertThat(ratio).isBetween(99.9, 100.0);
  }

  @Test
  void shippedTpcdsSizesCoverTheTwentyFourTablesAndGrowAsTheGeneratorDoes() {
    ColumnSizes sf1 = ColumnSizes.load("tpcds-sf1");
    ColumnSizes sf100 = ColumnSizes.load("tpcds-sf100");
    assertThat(sf1.columns().stream().map(s -> s.column().table()).distinct()).hasSize(24);
    // Facts grow linearly (store_sales: 2.88 M rows at SF 1, 288 M at SF 100), date_dim not at
    // all, item in steps (18 000 -> 204 000 rows).
    assertThat(bytes(sf100, "store_sales") / bytes(sf1, "store_sales")).isCloseTo(100, within(0.5));
    assertThat(bytes(sf100, "date_dim")).isEqualTo(bytes(sf1, "date_dim"));
    assertThat(bytes(sf100, "item") / bytes(sf1, "item")).isCloseTo(204.0 / 18, within(0.01));
    assertThatThrownBy(() -> ColumnSizes.load("tpcds-sf0"))
        .hasMessageContaining("TPC-DS scale factor must be at least 1");
  }

  private static double bytes(ColumnSizes sizes, String table) {
    return sizes.columns().stream()
        .filter(s -> s.column().table().equals(table))
        .mapToLong(ColumnSize::bytes)
        .sum();
  }

  @Test
  void errorsNameTheFileTheLineAndTheFix() {
    assertThatThrownBy(() -> ColumnSizes.parse("table,column,bytes\n", "s.csv"))
        .hasMessageStartingWith("s.csv:1: expected the header");
    assertThatThrownBy(() -> ColumnSizes.parse(CSV + "t,c,5\n", "s.csv"))
        .hasMessageStartingWith("s.csv:5: expected 5 fields");
    assertThatThrownBy(() -> ColumnSizes.parse(CSV + "t,a,5,,\n", "s.csv"))
        .hasMessage("s.csv:5: column t.a is listed twice (first on line 3)");
    assertThatThrownBy(() -> ColumnSizes.parse(CSV + "t,c,-5,,\n", "s.csv"))
        .hasMessageContaining("bytes must be a whole number of bytes >= 0, not \"-5\"");
    assertThatThrownBy(() -> ColumnSizes.parse("table,column,bytes,zstd_bytes,lz4_bytes\n", "s"))
        .hasMessageContaining("lists no columns");
    assertThatThrownBy(() -> ColumnSizes.load("/no/such/sizes.csv"))
        .hasMessageContaining("does not exist")
        .hasMessageContaining("tpch-sf1");
  }
}
