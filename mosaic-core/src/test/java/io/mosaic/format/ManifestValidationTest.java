package io.mosaic.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mosaic.table.MixedTable;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableRoundTripTest;
import io.mosaic.table.TableWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28: manifests whose checksum is right but whose content breaks the format are refused when
 * they are read, with a message naming the file and the broken invariant; a commit never publishes
 * one. The table ({@link MixedTable}) has 17 columns in 9 row groups of 1,000, 1,000 and 500 rows
 * (three appends): column {@code c}'s segments are {@code segments[c]}, {@code [17 + c]} and {@code
 * [34 + c]}, starting at row groups 0, 3 and 6.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ManifestValidationTest {
  private ManifestProbe probe;
  private String where;
  private String tableId;

  @BeforeAll
  void createTable(@TempDir Path dir) throws IOException {
    probe = new ManifestProbe(dir);
    where = "manifest v4 of table mixed (" + probe.manifest + "): ";
    tableId = probe.table().latest().tableId();
  }

  @AfterAll
  void close() {
    probe.close();
  }

  /**
   * Asserts that the manifest changed by {@code change} is refused on load with {@code problem}.
   */
  private void refused(Consumer<ObjectNode> change, String problem) {
    byte[] file = ManifestMutations.edit(probe.original, change);
    ManifestProbe.Outcome outcome = probe.read(file);
    assertThat(outcome.refused()).as(problem).isNotNull();
    assertThat(outcome.refused())
        .isInstanceOf(CorruptTableException.class)
        .hasMessage(
            where
                + problem
                + "; the last good version is v3: roll back to it (docs/format.md), which publishes"
                + " its content as v5 and keeps the damaged file");
  }

  private static ObjectNode segment(ObjectNode m, int i) {
    return (ObjectNode) m.get("segments").get(i);
  }

  private static ObjectNode column(ObjectNode m, int c) {
    return (ObjectNode) m.get("schema").get(c);
  }

  private static ArrayNode rowGroups(ObjectNode m) {
    return (ArrayNode) m.get("rowGroups");
  }

  private String path(int segment) {
    return probe.table().latest().segments().get(segment).path();
  }

  @Test
  void theTableReadsBackAsWrittenAndInfiniteStatisticsRoundTrip() {
    assertThat(probe.read().rows()).isEqualTo(probe.fixture.rows);
    assertThat(probe.scanAll()).isEqualTo(probe.fixture.rows);
    // JSON writers spell infinities as strings; they used to read back as 0.0 (wrong skipping).
    RowGroupStats d = probe.table().latest().segmentsOf("d").get(0).stats().get(0);
    assertThat(d.min()).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(d.max()).isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void rowGroupCountsMustBePositiveIntegersCoveredByEveryColumn() {
    refused(
        m -> rowGroups(m).set(1, 0),
        "rowGroups[1] is 0 rows; a row group holds 1 to 2147483647 rows");
    refused(
        m -> rowGroups(m).set(4, -1000),
        "rowGroups[4] is -1000 rows; a row group holds 1 to 2147483647 rows");
    // Dropped or merged entries: the last segments then reach past the end.
    refused(
        m -> rowGroups(m).remove(4),
        "segments[34] (column 'id') holds 3 row groups from row group 6, but the table's row groups"
            + " are 0 to 7");
    refused(
        m -> {
          rowGroups(m).set(0, 2000);
          rowGroups(m).remove(1);
        },
        "segments[34] (column 'id') holds 3 row groups from row group 6, but the table's row groups"
            + " are 0 to 7");
    refused(
        m -> rowGroups(m).add(1000), "column 'id' has segments for 9 of the table's 10 row groups");
    refused(
        m -> m.putArray("rowGroups"),
        "segments[0] (column 'id') holds 3 row groups from row group 0, but the table's row groups"
            + " are none");
  }

  @Test
  void integersMustBeJsonIntegers() {
    // Jackson's longValue() reads "75000" and 7.5e4 as numbers, or as 0: both are refused.
    refused(
        m -> rowGroups(m).set(3, "1000"),
        "rowGroups[3] is a string \"1000\", not a JSON integer (64 bits)");
    refused(
        m -> rowGroups(m).set(3, 1000.0),
        "rowGroups[3] is a fraction 1000.0, not a JSON integer (64 bits)");
    refused(
        m -> rowGroups(m).set(3, 999.5),
        "rowGroups[3] is a fraction 999.5, not a JSON integer (64 bits)");
    refused(
        m -> segment(m, 17).put("firstRowGroup", "3"),
        "segments[17].firstRowGroup is a string \"3\", not a JSON integer (64 bits)");
    refused(
        m -> segment(m, 17).put("rowGroupCount", 3.0),
        "segments[17].rowGroupCount is a fraction 3.0, not a JSON integer (64 bits)");
    refused(
        m -> segment(m, 17).put("firstRowGroup", 1L << 33),
        "segments[17].firstRowGroup is 8589934592, out of range (32 bits)");
    refused(m -> m.put("version", "4"), "version is a string \"4\", not a JSON integer (64 bits)");
    refused(
        m -> column(m, 1).put("nullable", "true"),
        "schema[1].nullable is a string \"true\", not a JSON boolean");
  }

  @Test
  void segmentsCoverEveryRowGroupOnceInOrder() {
    refused(
        m -> segment(m, 17).put("firstRowGroup", 4),
        "segments[17] (column 'id') starts at row group 4 but the column's previous segment,"
            + " segments[0], ends at row group 2: row group 3 is in no segment");
    refused(
        m -> segment(m, 17).put("firstRowGroup", 2),
        "segments[17] (column 'id') starts at row group 2 but the column's previous segment,"
            + " segments[0], ends at row group 2: row group 2 is in two segments");
    refused(
        m -> segment(m, 1).put("firstRowGroup", 1),
        "segments[1] (column 'b') starts at row group 1 but is the column's first segment: row group"
            + " 0 is in no segment");
    refused(
        m -> segment(m, 17).put("firstRowGroup", -1),
        "segments[17] (column 'id') holds 3 row groups from row group -1, but the table's row"
            + " groups are 0 to 8");
    refused(
        m -> segment(m, 34).put("firstRowGroup", 9),
        "segments[34] (column 'id') holds 3 row groups from row group 9, but the table's row groups"
            + " are 0 to 8");
    refused(
        m -> {
          segment(m, 17).put("rowGroupCount", 0);
          segment(m, 17).putArray("stats");
        },
        "segments[17] (column 'id') holds 0 row groups from row group 3, but a segment holds at"
            + " least one");
    // All segments of one column removed.
    refused(
        m -> {
          for (int i : new int[] {46, 29, 12}) {
            ((ArrayNode) m.get("segments")).remove(i);
          }
        },
        "column 'ts' has segments for 0 of the table's 9 row groups (it has no segment)");
    refused(
        m -> ((ArrayNode) m.get("segments")).insert(1, segment(m, 0).deepCopy()),
        "segments[1] (column 'id') refers to file "
            + path(0)
            + " on device 'nvme', as an earlier segment does");
  }

  @Test
  void segmentPathsStayInTheirColumnsFolder() {
    String tail = "; a segment of this column lies under '";
    String rules =
        "' (<table id>/<column id>/, relative to the device root, without '.', '..' or empty"
            + " components)";
    // Another column's file of the same type (i64 is column 5, i64b column 15).
    refused(
        m -> {
          segment(m, 5).put("path", path(15));
          segment(m, 5).put("device", probe.table().latest().segments().get(15).device());
        },
        "segments[5] (column 'i64') has path '"
            + path(15)
            + "', which is outside the column's folder on the device"
            + tail
            + tableId
            + "/5/"
            + rules);
    // Two columns swapped in the schema: their files are in each other's folder.
    refused(
        m -> {
          ObjectNode i64 = column(m, 5).deepCopy();
          ((ArrayNode) m.get("schema")).set(5, column(m, 15));
          ((ArrayNode) m.get("schema")).set(15, i64);
        },
        "segments[5] (column 'i64') has path '"
            + path(5)
            + "', which is outside the column's folder on the device"
            + tail
            + tableId
            + "/15/"
            + rules);
    String file = path(3).substring(path(3).lastIndexOf('/') + 1);
    String folder = tableId + "/3/";
    for (String[] bad :
        new String[][] {
          {"../" + path(3), "has a '..' component"},
          {folder + "../3/" + file, "has a '..' component"},
          {folder + "./" + file, "has a '.' component"},
          {tableId + "//3/" + file, "has an empty component"},
          {"/" + path(3), "is absolute"},
          {path(3).replace('/', '\\'), "contains a backslash or NUL"},
          {"", "is empty"},
        }) {
      refused(
          m -> segment(m, 3).put("path", bad[0]),
          "segments[3] (column 'i16') has path '"
              + bad[0]
              + "', which "
              + bad[1]
              + tail
              + folder
              + rules);
    }
    refused(m -> segment(m, 3).put("device", ""), "segments[3] (column 'i16') has no device");
  }

  @Test
  void tableIdsAreUuids() {
    for (String id : List.of("..", "../mid", "a/b")) {
      refused(
          m -> m.put("tableId", id),
          "table id '"
              + id
              + "' is not a UUID (8-4-4-4-12 hex digits); segment paths start with it");
    }
    refused(m -> m.put("version", 0), "version 0 is not a version number (1 or more)");
  }

  @Test
  void theSchemaIsUniqueAndTyped() {
    refused(
        m -> segment(m, 3).put("column", "nope"),
        "segments[3] is of column 'nope': unknown column 'nope'; the table has: "
            + String.join(", ", MixedTable.SCHEMA.names()));
    refused(m -> column(m, 2).put("name", "b"), "schema: column 'b' appears twice");
    refused(m -> column(m, 2).put("name", "B"), "schema: column 'B' appears twice");
    refused(
        m -> column(m, 2).put("name", ""),
        "schema: column name '' is not allowed: it must be non-empty, without '/'");
    refused(
        m -> column(m, 2).put("type", "int128"),
        "schema[2].type: unknown column type 'int128'; supported: " + ColumnType.SUPPORTED);
    refused(
        m -> column(m, 2).put("type", "INT8"),
        "schema[2].type is 'INT8', which the format spells 'int8'");
    // int64 declared int32: the statistics no longer fit (else the segment check refuses it).
    long min = (Long) probe.table().latest().segments().get(5).stats().get(0).min();
    refused(
        m -> column(m, 5).put("type", "int32"),
        "segments[5] (column 'i64').stats[0]: min "
            + min
            + " is out of the range of int32 (-2147483648 to 2147483647)");
    // A decimal's scale changed: the statistics have the old scale.
    Object dec = probe.table().latest().segments().get(9).stats().get(0).min();
    refused(
        m -> column(m, 9).put("type", "decimal(18,2)"),
        "segments[9] (column 'dec18').stats[0]: min "
            + ((java.math.BigDecimal) dec).toPlainString()
            + " has scale 4, not 2");
    refused(
        m -> column(m, 1).put("nullable", false),
        "segments[1] (column 'b').stats[0] counts 142 nulls in a column declared not nullable");
  }

  @Test
  void fieldsAreAllPresentAndNoOthers() {
    refused(m -> segment(m, 4).remove("checksum"), "segments[4] has no field 'checksum'");
    refused(m -> m.remove("rowGroups"), "the manifest has no field 'rowGroups'");
    refused(m -> column(m, 0).remove("nullable"), "schema[0] has no field 'nullable'");
    refused(
        m -> ((ObjectNode) segment(m, 4).get("stats").get(1)).remove("nulls"),
        "segments[4].stats[1] has no field 'nulls'");
    refused(
        m -> m.put("rowCount", 22_500),
        "the manifest has a field 'rowCount' that format version 1 does not define");
    refused(
        m -> ((ArrayNode) segment(m, 4).get("stats")).remove(2),
        "segments[4] (column 'i32') has 2 stats for 3 row groups");
    refused(
        m -> segment(m, 4).put("checksum", "crc32c:1234"),
        "segments[4] (column 'i32') has checksum 'crc32c:1234', not crc32c:<8 lowercase hex"
            + " digits>");
    refused(
        m -> segment(m, 4).put("codec", "gzip"),
        "segments[4].codec is 'gzip', not one of none, lz4, zstd");
    refused(
        m -> segment(m, 4).put("fileBytes", -1),
        "segments[4] (column 'i32') has byte counts fileBytes -1, compressedBytes "
            + probe.table().latest().segments().get(4).compressedBytes()
            + ", uncompressedBytes "
            + probe.table().latest().segments().get(4).uncompressedBytes()
            + ": they cannot be negative, and the column chunks cannot exceed the file");
    refused(
        m -> ((ObjectNode) segment(m, 4).get("stats").get(0)).put("nulls", 1001),
        "segments[4] (column 'i32').stats[0] counts 1001 nulls in row group 0, which has 1000"
            + " rows");
    refused(
        m -> {
          ObjectNode st = (ObjectNode) segment(m, 4).get("stats").get(0);
          var lo = st.get("min");
          st.set("min", st.get("max"));
          st.set("max", lo);
        },
        "segments[4] (column 'i32').stats[0] has min "
            + probe.table().latest().segments().get(4).stats().get(0).max()
            + " greater than max "
            + probe.table().latest().segments().get(4).stats().get(0).min());
  }

  @Test
  void keysGivenTwiceOrTextAfterTheBodyAreRefused() {
    String body = ManifestMutations.body(probe.original);
    byte[] twice =
        ManifestMutations.file(
            body.replaceFirst("\"version\" : 4,", "\"version\" : 4, \"version\" : 3,"));
    assertThat(probe.read(twice).refused())
        .hasMessageStartingWith(where.substring(0, where.length() - 2))
        .hasMessageContaining(" is not valid JSON: Duplicate field 'version' (line ");
    assertThat(probe.read(ManifestMutations.file(body + "\n{}")).refused())
        .hasMessageContaining(" is not valid JSON: Trailing token");
  }

  @Test
  void aCommitNeverPublishesAnInvalidVersion(@TempDir Path dir) throws IOException {
    MixedTable fresh = MixedTable.create(dir, "commits");
    MosaicTable table = fresh.table;
    Manifest before = table.latest();
    // Dropping the last row group but not the segments that hold it.
    assertThatThrownBy(
            () ->
                table.commit(
                    "append",
                    base -> base.next("append", base.rowGroups().subList(0, 8), base.segments())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "proposed manifest v5 of table id "
                + before.tableId()
                + ": segments[34] (column 'id') holds 3 row groups from row group 6, but the"
                + " table's row groups are 0 to 7");
    assertThat(table.latest().version()).isEqualTo(before.version());
    assertThat(Files.exists(table.manifestFile(5))).isFalse();

    // A writer given only empty batches commits nothing, not segments without row groups.
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = table.newWriter();
        VectorSchemaRoot empty = VectorSchemaRoot.create(MixedTable.SCHEMA.arrowSchema(), alloc)) {
      empty.allocateNew();
      empty.setRowCount(0);
      writer.write(empty);
      Manifest after = table.append(List.of(writer.finish()));
      assertThat(after.version()).isEqualTo(5);
      assertThat(after.segments()).hasSameSizeAs(before.segments());
      assertThat(after.rowGroups()).isEqualTo(before.rowGroups());
      assertThat(table.latest().version()).isEqualTo(5);
      assertThat(TableRoundTripTest.rows(table, table.latest(), alloc)).isEqualTo(fresh.rows);
    }
  }

  private static ObjectNode stats(ObjectNode m, int segment, int k) {
    return (ObjectNode) segment(m, segment).get("stats").get(k);
  }

  @Test
  void distinctSketchesAndDataSizesAreOptionalAndCheckedWhenPresent() {
    // Written by this version's writers: every row group has a sketch, strings their data size.
    RowGroupStats s = probe.table().latest().segmentsOf("s").get(0).stats().get(0);
    assertThat(s.hasDistinct()).isTrue();
    assertThat(s.dataBytes()).isPositive();
    // A manifest written before they existed reads unchanged.
    byte[] old =
        ManifestMutations.edit(
            probe.original,
            m -> {
              for (int i = 0; i < m.get("segments").size(); i++) {
                for (int k = 0; k < segment(m, i).get("stats").size(); k++) {
                  stats(m, i, k).remove(List.of("distinct", "dataBytes"));
                }
              }
            });
    assertThat(probe.read(old).rows()).isEqualTo(probe.fixture.rows);

    refused(
        m -> stats(m, 0, 0).put("distinct", "AAAA"),
        "segments[0] (column 'id').stats[0].distinct is not a distinct-value sketch of format 1 (3 bytes)");
    refused(
        m -> stats(m, 0, 0).put("distinct", "AQxqdW5r"),
        "segments[0] (column 'id').stats[0].distinct is damaged: incorrect header check");
    refused(
        m -> stats(m, 0, 0).put("distinct", 17),
        "segments[0].stats[0].distinct is an integer 17, not a JSON string");
    refused(
        m -> stats(m, 0, 0).put("distinct", new DistinctSketch().toBase64()),
        "segments[0] (column 'id').stats[0].distinct is empty, but the row group has 1000 non-null values");
    refused(
        m -> stats(m, 0, 0).put("dataBytes", 8000),
        "segments[0] (column 'id').stats[0] has dataBytes, which only strings and binaries keep");
    refused(
        m -> stats(m, 13, 0).put("dataBytes", -5),
        "segments[13] (column 's').stats[0] has dataBytes -5, not a byte count");
  }
}
