package io.mosaic.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mosaic demo} end to end at a tiny scale (the README runs it at SF 0.1 in CI). */
class DemoCommandTest {
  @TempDir Path dir;

  @Test
  void runsEveryPhaseAndWritesTheReport() throws IOException {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        MosaicCli.run(
            new String[] {
              "demo", "--sf", "0.01", "--dir", dir.resolve("demo").toString(), "--sweep-steps", "2"
            },
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    assertThat(status).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("== 1/6", "== 2/6", "== 3/6", "== 4/6", "== 5/6", "== 6/6")
        .contains("87 scans (57 distinct)", "the paper's vertical line")
        .containsPattern("HOT table\\s+moved")
        .containsPattern("HOT column\\s+moved")
        .containsPattern("LOPT\\s+moved")
        .containsPattern("measured [0-9.]+ s \\(median of 3 runs\\), error [-+][0-9.]+%")
        .contains("fixed cost per scan", "measured order")
        .contains("Clean up with: rm -rf " + dir.resolve("demo"));
    String report = Files.readString(dir.resolve("demo/report.html"));
    assertThat(report).contains("<svg", "HOT column", "LOPT", "lineitem", "l_orderkey");
  }
}
