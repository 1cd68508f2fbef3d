package io.mosaic.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.config.DeviceCatalog;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TraceFileTest {
  @TempDir Path dir;

  @Test
  void figure3bExampleMergesRepeatedScans() {
    Workload w = TraceFile.parse("[[trace]]\nA:x,y\nB:z\nA:x\nC:u,v\nA:y\nC:v,w\nA:x\n", "fig3b");

    assertThat(w.totalWeight()).isEqualTo(7);
    assertThat(w.scans()).hasSize(6);
    assertThat(w.scans().get(2)).isEqualTo(new DistinctScan(Set.of(new ColumnRef("A", "x")), 2));
  }

  @Test
  void formatThenParseGivesTheSameWorkload() {
    Workload w =
        TraceFile.parse("# c\n[[trace]]\nt:a,b x3\n\nt:b\n[[trace]]\nu:k\nt:b x2\n", "test");
    assertThat(w.scans()).hasSize(3);
    assertThat(TraceFile.parse(TraceFile.format(w), "again")).isEqualTo(w);
  }

  @ParameterizedTest
  @CsvSource({"tpch,22", "tpcds,99"})
  void shippedTraceMatchesItsOwnCountsAndTheMeasuredColumns(String name, int queries) {
    Workload trace = TraceFile.load(name);
    String text = TraceFile.resource(name + ".trace");
    Matcher counts = Pattern.compile("# (\\d+) table scans, (\\d+) distinct").matcher(text);
    assertThat(counts.find()).isTrue();
    assertThat(trace.totalWeight()).isEqualTo(Long.parseLong(counts.group(1)));
    assertThat(trace.scans()).hasSize(Integer.parseInt(counts.group(2)));
    assertThat(text.lines().filter(l -> l.matches("# q\\d\\d"))).hasSize(queries);

    // Every column the trace names has a measured size: the two resources agree.
    CostModel model =
        CostModel.of(
            DeviceCatalog.load("table1").stream().map(DeviceProfile::catalog).toList(),
            ColumnSizes.load(name + "-sf1").columns());
    model.validate(trace);
  }

  @Test
  void errorsNameTheFileTheLineAndTheFix() {
    assertThatThrownBy(() -> TraceFile.parse("# hi\nlineitem:l_quantity\n", "w.trace"))
        .hasMessage("w.trace:2: scan line before the first [[trace]] header; add it above");
    assertThatThrownBy(() -> TraceFile.parse("[[trace]]\nlineitem l_quantity\n", "w.trace"))
        .hasMessageStartingWith("w.trace:2: expected table:columns like");
    assertThatThrownBy(() -> TraceFile.parse("[[trace]]\n\nt:a,,b\n", "w.trace"))
        .hasMessageStartingWith("w.trace:3: empty column name");
    assertThatThrownBy(() -> TraceFile.parse("[[trace]]\nt:a,a\n", "w.trace"))
        .hasMessage("w.trace:2: column a is listed twice in one scan");
    assertThatThrownBy(() -> TraceFile.parse("[[traces]]\n", "w.trace"))
        .hasMessageStartingWith("w.trace:1: unknown section [[traces]]");
    assertThatThrownBy(() -> TraceFile.parse("[[trace]]\nt:a x0\n", "w.trace"))
        .hasMessageStartingWith("w.trace:2: weight x0 must be at least x1");
  }

  @Test
  void emptyAndMissingTracesAreRefused() throws IOException {
    Path empty = dir.resolve("empty.trace");
    Files.writeString(empty, "# nothing yet\n[[trace]]\n");
    assertThatThrownBy(() -> TraceFile.read(empty))
        .isInstanceOf(MosaicException.class)
        .hasFieldOrPropertyWithValue("kind", MosaicException.Kind.INVALID_ARGUMENT)
        .hasMessageContaining("has no table scans");
    assertThatThrownBy(() -> TraceFile.load(dir.resolve("nope.trace").toString()))
        .hasMessageContaining("does not exist")
        .hasMessageContaining("tpch");
  }

  @Test
  void writeThenReadRoundTrips() throws IOException {
    Workload w = Workload.merging(List.of(new DistinctScan(Set.of(ColumnRef.parse("t.a")), 4)));
    Path file = dir.resolve("w.trace");
    TraceFile.write(file, w);
    assertThat(TraceFile.read(file)).isEqualTo(w);
  }
}
