package io.mosaic.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.sql.Row;

/**
 * The 22 TPC-H queries' answers of Spark over Parquet on local files, as {@link TpchQueriesTest}
 * computes them, kept in the module's {@code target/} for the rest of the build: {@link
 * HdfsLocalClusterIT} compares its answers on HDFS devices with them instead of loading a local
 * copy and running the queries twice more, which on a 2-core machine costs about a second of
 * scheduling per query whatever it reads. A set counts only once all 22 answers are written; a
 * build that did not run {@link TpchQueriesTest} has none, and the IT then computes its own
 * reference.
 */
final class TpchReference {
  private TpchReference() {}

  private static Path folder(double scale) {
    return Path.of("target", "tpch-reference", String.format(Locale.ROOT, "sf%s", scale));
  }

  /** Starts a new set for {@code scale}, dropping any earlier one. */
  static void clear(double scale) throws IOException {
    Path dir = folder(scale);
    Files.deleteIfExists(dir.resolve("complete"));
    Files.createDirectories(dir);
  }

  /** Query {@code q}'s answer, row by row in Spark's order. */
  static void write(double scale, int q, List<Row> answer) throws IOException {
    Files.write(folder(scale).resolve("q" + q + ".rows"), lines(answer), StandardCharsets.UTF_8);
  }

  /** Marks the set of {@code scale} complete: every query's answer was written and checked. */
  static void complete(double scale) throws IOException {
    Files.writeString(folder(scale).resolve("complete"), "22\n");
  }

  /** The 22 answers of a complete set for {@code scale}, query 1 first. */
  static Optional<List<List<String>>> read(double scale) throws IOException {
    Path dir = folder(scale);
    if (!Files.exists(dir.resolve("complete"))) {
      return Optional.empty();
    }
    List<List<String>> answers = new ArrayList<>();
    for (int q = 1; q <= 22; q++) {
      answers.add(Files.readAllLines(dir.resolve("q" + q + ".rows"), StandardCharsets.UTF_8));
    }
    return Optional.of(answers);
  }

  /** An answer as the lines this class keeps: each row's {@code toString()}, in order. */
  static List<String> lines(List<Row> answer) {
    return answer.stream().map(Row::toString).toList();
  }
}
