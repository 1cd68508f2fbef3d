package io.mosaic.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28: manifests that pass every check on load but do not describe their segment files (a row
 * count off by one, another type, another column's or segment's file, ...). A scan checks each
 * segment's footer against the manifest before it uses the segment, also when the footer was cached
 * for an earlier version, and refuses with a message naming table, column, device, file and the
 * difference. The table is {@link MixedTable}'s: column {@code c}'s segments are {@code
 * segments[c]}, {@code [17 + c]} and {@code [34 + c]}, starting at row groups 0, 3 and 6.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SegmentFooterCheckTest {
  private ProbeState state;

  private record ProbeState(ManifestProbe probe, Manifest manifest) {}

  @BeforeAll
  void createTable(@TempDir Path dir) throws IOException {
    ManifestProbe probe = new ManifestProbe(dir);
    state = new ProbeState(probe, probe.table().latest());
    // Every footer is now cached by the probe's retriever: the checks below are of cached ones.
    assertThat(probe.read().rows()).isEqualTo(probe.fixture.rows);
  }

  @AfterAll
  void close() {
    state.probe().close();
  }

  private ManifestProbe probe() {
    return state.probe();
  }

  /** Asserts that a scan refuses segment {@code i} of the changed manifest with {@code problem}. */
  private void refused(Consumer<ObjectNode> change, int i, String problem) {
    SegmentEntry s = state.manifest().segments().get(i);
    refused(change, s.column(), s.device(), s.path(), problem);
  }

  private void refused(
      Consumer<ObjectNode> change, String column, String device, String path, String problem) {
    byte[] file = ManifestMutations.edit(probe().original, change);
    ManifestProbe.Outcome outcome = probe().read(file);
    assertThat(outcome.refused()).as(problem).isNotNull();
    assertThat(outcome.refused())
        .hasMessage(
            "segment "
                + probe().fixture.pool.device(device).resolve(path)
                + " of column '"
                + column
                + "' of table mixed on device '"
                + device
                + "' does not match manifest v4: "
                + problem);
    // The cached footers still serve the valid version.
    assertThat(probe().read().rows()).isEqualTo(probe().fixture.rows);
  }

  private static ObjectNode segment(ObjectNode m, int i) {
    return (ObjectNode) m.get("segments").get(i);
  }

  private static ObjectNode column(ObjectNode m, int c) {
    return (ObjectNode) m.get("schema").get(c);
  }

  /**
   * Forgets column {@code c}'s statistics (min and max), so that they cannot give a change away.
   */
  private static void noMinMax(ObjectNode m, int c) {
    for (int i = c; i < 51; i += 17) {
      for (JsonNode st : segment(m, i).get("stats")) {
        ((ObjectNode) st).putNull("min");
        ((ObjectNode) st).putNull("max");
      }
    }
  }

  @Test
  void rowCountsMustBeTheFilesRowCounts() {
    // rowGroups[3] 999 instead of 1000: the manifest is consistent in itself.
    refused(
        m -> ((ArrayNode) m.get("rowGroups")).set(3, 999),
        17,
        "its row group 0 (table row group 3) has 1000 rows, the manifest says 999");
    refused(
        m -> {
          ((ArrayNode) m.get("rowGroups")).set(1, 500);
          ((ArrayNode) m.get("rowGroups")).set(2, 1000);
        },
        0,
        "its row group 1 (table row group 1) has 1000 rows, the manifest says 500");
    // Two segments of a column merged into one entry (the first one's file).
    refused(
        m -> {
          segment(m, 0).put("rowGroupCount", 6);
          ((ArrayNode) segment(m, 0).get("stats")).addAll((ArrayNode) segment(m, 17).get("stats"));
          ((ArrayNode) segment(m, 0).get("chunkChecksums"))
              .addAll((ArrayNode) segment(m, 17).get("chunkChecksums"));
          ((ArrayNode) m.get("segments")).remove(17);
        },
        0,
        "it has 3 row groups, the manifest says 6 (table row groups 0 to 5)");
  }

  @Test
  void typesMustBeTheFilesTypes() {
    refused(
        m -> column(m, 4).put("type", "date"),
        4,
        "it holds Parquet type 'optional int32 i32', but column 'i32' (date) is stored as"
            + " 'optional int32 i32 (DATE)'");
    refused(
        m -> column(m, 5).put("type", "double"),
        5,
        "it holds Parquet type 'optional int64 i64', but column 'i64' (double) is stored as"
            + " 'optional double i64'");
    refused(
        m -> {
          column(m, 5).put("type", "int32");
          noMinMax(m, 5);
        },
        5,
        "it holds Parquet type 'optional int64 i64', but column 'i64' (int32) is stored as"
            + " 'optional int32 i64'");
    refused(
        m -> {
          column(m, 9).put("type", "decimal(18,2)");
          noMinMax(m, 9);
        },
        9,
        "it holds Parquet type 'optional int64 dec18 (DECIMAL(18,4))', but column 'dec18'"
            + " (decimal(18,2)) is stored as 'optional int64 dec18 (DECIMAL(18,2))'");
    refused(
        m -> column(m, 0).put("nullable", true),
        0,
        "it holds Parquet type 'required int64 id', but column 'id' (int64) is stored as"
            + " 'optional int64 id'");
  }

  @Test
  void theFilesOwnColumnNameDoesNotMatter() {
    // i64 (column 5) and i64b (column 15) swap names in the schema and in their segments: two
    // renames (docs/format.md, "Column ids"). The paths stay in their columns' folders, the files
    // hold the names they were written under, and the manifest says whose segment each is.
    byte[] file =
        ManifestMutations.edit(
            probe().original,
            m -> {
              column(m, 5).put("name", "i64b");
              column(m, 15).put("name", "i64");
              for (int i = 0; i < 51; i++) {
                String c = segment(m, i).get("column").textValue();
                if (c.equals("i64") || c.equals("i64b")) {
                  segment(m, i).put("column", c.equals("i64") ? "i64b" : "i64");
                }
              }
            });
    ManifestProbe.Outcome outcome = probe().read(file);
    assertThat(outcome.refused()).isNull();
    assertThat(outcome.rows()).isEqualTo(probe().fixture.rows);
  }

  @Test
  void sizesCodecsAndStatisticsMustBeTheFiles() {
    SegmentEntry s = state.manifest().segments().get(19);
    refused(
        m -> segment(m, 19).put("fileBytes", s.fileBytes() + 1),
        19,
        "the file is " + s.fileBytes() + " bytes, the manifest says " + (s.fileBytes() + 1));
    refused(
        m -> segment(m, 19).put("compressedBytes", s.compressedBytes() - 1),
        19,
        "its column chunks are "
            + s.compressedBytes()
            + " bytes ("
            + s.uncompressedBytes()
            + " uncompressed), the manifest says "
            + (s.compressedBytes() - 1)
            + " ("
            + s.uncompressedBytes()
            + ")");
    // Segment 19 (column i8, row groups 3 to 5) is on raid, whose codec is none.
    refused(
        m -> segment(m, 19).put("codec", "zstd"),
        19,
        "its row group 0 (table row group 3) is compressed with UNCOMPRESSED, but the manifest says"
            + " zstd (ZSTD)");
    RowGroupStats st = s.stats().get(1);
    refused(
        m -> ((ObjectNode) segment(m, 19).get("stats").get(1)).put("min", (Long) st.min() + 1),
        19,
        "its row group 1 (table row group 4) has min "
            + st.min()
            + " and max "
            + st.max()
            + ", the manifest says "
            + ((Long) st.min() + 1)
            + " and "
            + st.max());
    refused(
        m -> ((ObjectNode) segment(m, 19).get("stats").get(1)).put("nulls", st.nulls() + 1),
        19,
        "its row group 1 (table row group 4) counts "
            + st.nulls()
            + " nulls, the manifest says "
            + (st.nulls() + 1));
  }

  @Test
  void segmentsSwappingFilesAreRefused() {
    // Column f's first two segments have the same shape; only their values differ.
    SegmentEntry first = state.manifest().segments().get(6);
    SegmentEntry second = state.manifest().segments().get(23);
    byte[] file =
        ManifestMutations.edit(
            probe().original,
            m -> {
              segment(m, 6).put("path", second.path());
              segment(m, 23).put("path", first.path());
            });
    assertThat(probe().read(file).refused())
        .hasMessageContaining("of column 'f' of table mixed on device 'raid' does not match")
        .hasMessageContaining(second.path());
  }

  @Test
  void aScanOfAllColumnsIsRefusedToo() throws IOException {
    // The engines' way: one scan of every column. Row group 0 of column id is the first chunk.
    byte[] file =
        ManifestMutations.edit(probe().original, m -> ((ArrayNode) m.get("rowGroups")).set(0, 999));
    Files.write(probe().manifest, file);
    try {
      Throwable thrown =
          assertTimeoutPreemptively(
              ManifestProbe.LIMIT,
              () -> {
                try {
                  probe().scanAll();
                  return null;
                } catch (CorruptTableException e) {
                  return e;
                }
              });
      assertThat(thrown)
          .isInstanceOf(CorruptTableException.class)
          .hasMessageEndingWith(
              "does not match manifest v4: its row group 0 (table row group 0) has 1000 rows, the"
                  + " manifest says 999");
    } finally {
      Files.write(probe().manifest, probe().original);
    }
    assertThat(probe().scanAll()).isEqualTo(probe().fixture.rows);
  }
}
