package io.mosaic.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TestPool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Semantically wrong variants of a manifest file, each with a <em>correct</em> checksum: what a
 * buggy writer, a hand edit or a tool that recomputes the checksum could leave behind. Row group
 * counts, segment ranges, types, schema edits, swapped or renamed columns, paths that leave the
 * table or point at other columns' files, byte counts, codecs, statistics, strings and fractions
 * where integers belong, missing and unknown fields. A reader must refuse each with {@link
 * CorruptTableException} or, where the change happens to be harmless (a reordered segment list,
 * another commit time), return exactly the original rows.
 *
 * <p>Every variant is a change of the manifest's meaning against the segment files it names, never
 * a consistent manifest of other data (an empty table, a table with its last row group dropped
 * everywhere): such a manifest is as valid as any other version.
 */
public final class ManifestMutations {
  /** One mutated manifest: what was changed, and the whole file (header, body, checksum). */
  public record Variant(String name, byte[] file) {}

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String MIDDLE = "\",\"manifest\":";
  private static final String[] TYPES = {
    "boolean",
    "int8",
    "int16",
    "int32",
    "int64",
    "float",
    "double",
    "decimal(12,2)",
    "decimal(18,4)",
    "date",
    "timestamp",
    "string",
    "binary"
  };

  private ManifestMutations() {}

  /** The body (the JSON object the checksum covers) of a manifest file. */
  public static String body(byte[] file) {
    String text = new String(file, StandardCharsets.UTF_8);
    int at = text.indexOf(MIDDLE);
    if (at < 0 || !text.endsWith("}\n")) {
      throw new IllegalArgumentException("not a Mosaic manifest file");
    }
    return text.substring(at + MIDDLE.length(), text.length() - 2);
  }

  /** A manifest file holding {@code body}, with the checksum of its bytes. */
  public static byte[] file(String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String head =
        "{\"format\":\"mosaic-manifest\",\"formatVersion\":"
            + Manifest.FORMAT_VERSION
            + ",\"crc32c\":\""
            + ManifestFile.crc(bytes, 0, bytes.length)
            + MIDDLE;
    return (head + body + "}\n").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Publishes {@code table}'s latest version changed by {@code change} as the next one, checksum
   * valid, and returns it as the table reads it.
   */
  public static Manifest publishNext(MosaicTable table, Consumer<ObjectNode> change)
      throws IOException {
    Manifest latest = table.latest();
    byte[] file =
        ManifestMutations.edit(
            Files.readAllBytes(table.manifestFile(latest.version())),
            m -> {
              m.put("version", latest.version() + 1);
              change.accept(m);
            });
    Files.write(table.manifestFile(latest.version() + 1), file);
    return table.latest();
  }

  /** The manifest file with its body's JSON changed by {@code change}, checksum recomputed. */
  public static byte[] edit(byte[] manifest, Consumer<ObjectNode> change) {
    try {
      ObjectNode root = (ObjectNode) JSON.readTree(body(manifest));
      change.accept(root);
      return file(JSON.writeValueAsString(root));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static List<Variant> of(Path manifest) throws IOException {
    return of(Files.readAllBytes(manifest));
  }

  /** The variants of the class of {@link Generator#segmentExchanges}. */
  public static List<Variant> exchanges(byte[] manifest) {
    Generator g = new Generator(body(manifest));
    g.segmentExchanges();
    return g.variants;
  }

  /** The variants of a manifest file (with at least one row group), named by their change. */
  public static List<Variant> of(byte[] manifest) {
    return new Generator(body(manifest)).all();
  }

  private static final class Generator {
    private final String original;
    private final ObjectNode root;
    private final String tableId;
    private final List<Long> rowGroups = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final List<String> types = new ArrayList<>();
    private final List<Boolean> nullable = new ArrayList<>();
    private final List<Variant> variants = new ArrayList<>();
    private final Set<String> seen = new LinkedHashSet<>();

    Generator(String body) {
      try {
        this.root = (ObjectNode) JSON.readTree(body);
        this.original = JSON.writeValueAsString(root);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      this.tableId = root.get("tableId").textValue();
      root.get("rowGroups").forEach(g -> rowGroups.add(g.longValue()));
      for (JsonNode c : root.get("schema")) {
        names.add(c.get("name").textValue());
        types.add(c.get("type").textValue());
        nullable.add(c.get("nullable").booleanValue());
      }
      if (rowGroups.isEmpty()) {
        throw new IllegalArgumentException("the manifest needs row groups to mutate");
      }
    }

    private int segmentCount() {
      return root.get("segments").size();
    }

    private JsonNode segment(int i) {
      return root.get("segments").get(i);
    }

    private static ObjectNode seg(ObjectNode m, int i) {
      return (ObjectNode) m.get("segments").get(i);
    }

    private static ObjectNode col(ObjectNode m, int c) {
      return (ObjectNode) m.get("schema").get(c);
    }

    private static ArrayNode groups(ObjectNode m) {
      return (ArrayNode) m.get("rowGroups");
    }

    /** Segment indexes of column {@code name}, in the manifest's order. */
    private List<Integer> segmentsOf(String name) {
      List<Integer> result = new ArrayList<>();
      for (int i = 0; i < segmentCount(); i++) {
        if (segment(i).get("column").textValue().equals(name)) {
          result.add(i);
        }
      }
      return result;
    }

    /** The segment of column {@code name} holding row group {@code group}, or -1. */
    private int segmentAt(String name, long group) {
      for (int i : segmentsOf(name)) {
        long first = segment(i).get("firstRowGroup").longValue();
        if (group >= first && group < first + segment(i).get("rowGroupCount").longValue()) {
          return i;
        }
      }
      return -1;
    }

    private void tree(String name, Consumer<ObjectNode> change) {
      ObjectNode copy = root.deepCopy();
      change.accept(copy);
      try {
        add(name, JSON.writeValueAsString(copy));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private void text(String name, UnaryOperator<String> change) {
      add(name, change.apply(original));
    }

    private void add(String name, String body) {
      if (!body.equals(original) && seen.add(body)) {
        variants.add(new Variant(name, file(body)));
      }
    }

    List<Variant> all() {
      topLevel();
      rowGroupValues();
      rowGroupLists();
      schemaEdits();
      segmentRanges();
      segmentFiles();
      segmentFields();
      segmentStats();
      segmentLists();
      segmentExchanges();
      return variants;
    }

    /**
     * Segments exchanging what places them: their row groups (each keeps its own file's statistics,
     * so only the files' own record of their row groups tells), their devices or paths, or two
     * columns' segments exchanging columns or files; and a segment named on a device where its file
     * is not. gc must keep every file such a version names, and its real files too.
     */
    private void segmentExchanges() {
      // Every column's first two segments exchange row groups (the class no other check sees);
      // a sample of columns exchange devices or paths, or name a segment on another device.
      for (int c = 0; c < names.size(); c++) {
        List<Integer> mine = segmentsOf(names.get(c));
        if (mine.size() > 1) {
          int a = mine.get(0);
          int b = mine.get(1);
          String label = "segments[" + a + "] and [" + b + "] exchange ";
          List<List<String>> exchanges =
              c % 3 == 0
                  ? List.of(List.of("firstRowGroup"), List.of("device"), List.of("path"))
                  : List.of(List.of("firstRowGroup"));
          for (List<String> fields : exchanges) {
            tree(label + String.join(" and ", fields), m -> exchange(m, a, b, fields));
          }
        }
        int last = mine.get(mine.size() - 1);
        JsonNode s = segment(last);
        String d = TestPool.IDS[(c + 1) % TestPool.IDS.length];
        if (c % 2 == 0 && !d.equals(s.get("device").textValue())) {
          tree(
              "segments[" + last + "] named on device '" + d + "'",
              m -> seg(m, last).put("device", d));
        }
      }
      // Two columns' segments over the same row groups exchange their columns, or their files.
      for (int c = 0; c + 1 < names.size(); c += 3) {
        int a = segmentAt(names.get(c), 0);
        int b = segmentAt(names.get(c + 1), 0);
        String label = "segments[" + a + "] and [" + b + "] (two columns) exchange ";
        tree(label + "column", m -> exchange(m, a, b, List.of("column")));
        tree(label + "device and path", m -> exchange(m, a, b, List.of("device", "path")));
      }
    }

    private static void exchange(ObjectNode m, int a, int b, List<String> fields) {
      for (String f : fields) {
        JsonNode x = seg(m, a).get(f);
        seg(m, a).set(f, seg(m, b).get(f));
        seg(m, b).set(f, x);
      }
    }

    private void topLevel() {
      String upper = tableId.toUpperCase(Locale.ROOT);
      for (String id :
          List.of("..", "../mid", "a/b", "", ".", upper, "00000000-0000-0000-0000-000000000000")) {
        tree("tableId '" + id + "'", m -> m.put("tableId", id));
      }
      tree("tableId as a number", m -> m.put("tableId", 42));
      tree("tableId null", m -> m.putNull("tableId"));
      long version = root.get("version").longValue();
      tree("version 0", m -> m.put("version", 0));
      tree("version -1", m -> m.put("version", -1));
      tree("version + 1", m -> m.put("version", version + 1));
      tree("version as a string", m -> m.put("version", Long.toString(version)));
      tree("version as a fraction", m -> m.put("version", (double) version));
      tree("operation as a number", m -> m.put("operation", 7));
      tree("operation empty", m -> m.put("operation", ""));
      tree("committedAt not a time", m -> m.put("committedAt", "yesterday"));
      tree("committedAt as a number", m -> m.put("committedAt", 1_700_000_000));
      tree("properties as an array", m -> m.putArray("properties"));
      tree(
          "property value as a number",
          m -> ((ObjectNode) m.get("properties")).put(TableProperties.ROW_GROUP_ROWS, 1000));
      for (String rows : List.of("0", "-5", "many")) {
        tree(
            "property row_group_rows '" + rows + "'",
            m -> ((ObjectNode) m.get("properties")).put(TableProperties.ROW_GROUP_ROWS, rows));
      }
      for (String field :
          List.of(
              "tableId",
              "version",
              "operation",
              "committedAt",
              "schema",
              "properties",
              "rowGroups",
              "segments")) {
        tree("missing " + field, m -> m.remove(field));
      }
      tree("unknown top-level field", m -> m.put("rowCount", 12));
      tree("rowGroups as an object", m -> m.putObject("rowGroups"));
      tree("segments as an object", m -> m.putObject("segments"));
      tree("schema as an object", m -> m.putObject("schema"));
      tree("schema empty", m -> m.putArray("schema"));
      tree("segments empty", m -> m.putArray("segments"));
      text(
          "version given twice",
          b -> b.replaceFirst("\"version\" : (\\d+),", "\"version\" : $1, \"version\" : $1,"));
      text(
          "tableId given twice",
          b -> b.replaceFirst("(\"tableId\" : \"[^\"]*\",)", "$1 \"tableId\" : \"x\","));
      text("a second object after the body", b -> b + " {}");
      text("the body as an array", b -> "[" + b + "]");
    }

    private void rowGroupValues() {
      for (int g = 0; g < rowGroups.size(); g++) {
        int at = g;
        long n = rowGroups.get(g);
        String name = "rowGroups[" + g + "] ";
        tree(name + (n - 1), m -> groups(m).set(at, n - 1));
        tree(name + (n + 1), m -> groups(m).set(at, n + 1));
        tree(name + "0", m -> groups(m).set(at, 0));
        tree(name + (-n), m -> groups(m).set(at, -n));
        tree(name + "as a string", m -> groups(m).set(at, NODES.textNode(Long.toString(n))));
        tree(name + "as a fraction " + n + ".0", m -> groups(m).set(at, NODES.numberNode(n + 0.0)));
        tree(name + (n - 0.5), m -> groups(m).set(at, NODES.numberNode(n - 0.5)));
        tree(
            name + "in exponent form",
            m -> groups(m).set(at, NODES.rawValueNode(new RawValue(n / 100.0 + "e2"))));
        tree(name + "null", m -> groups(m).set(at, NODES.nullNode()));
        tree(name + "2^31", m -> groups(m).set(at, 1L << 31));
        tree(name + "2^64", m -> groups(m).set(at, NODES.numberNode(BigInteger.ONE.shiftLeft(64))));
        tree(name + "true", m -> groups(m).set(at, true));
      }
    }

    private void rowGroupLists() {
      int n = rowGroups.size();
      for (int g = 0; g < n; g++) {
        int at = g;
        long rows = rowGroups.get(g);
        tree("rowGroups without entry " + g, m -> groups(m).remove(at));
        tree("rowGroups with entry " + g + " twice", m -> groups(m).insert(at, rows));
        if (rows > 1) {
          tree(
              "rowGroups with entry " + g + " split in two",
              m -> {
                groups(m).set(at, rows / 2);
                groups(m).insert(at + 1, rows - rows / 2);
              });
        }
        if (g + 1 < n) {
          long next = rowGroups.get(g + 1);
          tree(
              "rowGroups with entries " + g + " and " + (g + 1) + " merged",
              m -> {
                groups(m).set(at, rows + next);
                groups(m).remove(at + 1);
              });
          tree(
              "rowGroups with entries " + g + " and " + (g + 1) + " swapped",
              m -> {
                groups(m).set(at, next);
                groups(m).set(at + 1, rows);
              });
        }
      }
      tree("rowGroups empty, segments kept", m -> m.putArray("rowGroups"));
      tree("rowGroups with one more", m -> groups(m).add(rowGroups.get(0)));
      tree(
          "rowGroups reversed",
          m -> {
            ArrayNode a = groups(m);
            a.removeAll();
            List<Long> reversed = new ArrayList<>(rowGroups);
            Collections.reverse(reversed);
            reversed.forEach(a::add);
          });
    }

    private void schemaEdits() {
      int n = names.size();
      for (int c = 0; c < n; c++) {
        int at = c;
        String name = names.get(c);
        String label = "column " + c + " '" + name + "' ";
        for (String type : TYPES) {
          if (!type.equals(types.get(c))) {
            tree(label + "declared " + type, m -> col(m, at).put("type", type));
          }
        }
        java.util.regex.Matcher dec =
            java.util.regex.Pattern.compile("decimal\\((\\d+),(\\d+)\\)").matcher(types.get(c));
        if (dec.matches()) {
          int p = Integer.parseInt(dec.group(1));
          int s = Integer.parseInt(dec.group(2));
          for (int[] ps :
              new int[][] {{p, s + 1}, {p, Math.max(0, s - 1)}, {p + 1, s}, {p - 1, s}, {9, s}}) {
            if (ps[1] <= ps[0]) {
              String type = "decimal(" + ps[0] + "," + ps[1] + ")";
              tree(label + "declared " + type, m -> col(m, at).put("type", type));
            }
          }
        }
        tree(label + "nullable flipped", m -> col(m, at).put("nullable", !nullable.get(at)));
        tree(label + "nullable as a string", m -> col(m, at).put("nullable", "true"));
        tree(label + "renamed in the schema only", m -> col(m, at).put("name", name + "_x"));
        tree(
            label + "renamed in the schema and its segments",
            m -> {
              col(m, at).put("name", name + "_x");
              for (int i : segmentsOf(name)) {
                seg(m, i).put("column", name + "_x");
              }
            });
        tree(label + "removed from the schema", m -> ((ArrayNode) m.get("schema")).remove(at));
        if (c + 1 < n) { // without the last column, the table is just narrower
          tree(
              label + "and all its segments removed from the schema",
              m -> {
                ((ArrayNode) m.get("schema")).remove(at);
                List<Integer> gone = segmentsOf(name);
                for (int k = gone.size() - 1; k >= 0; k--) {
                  ((ArrayNode) m.get("segments")).remove((int) gone.get(k));
                }
              });
        }
        tree(
            label + "without segments",
            m -> {
              List<Integer> gone = segmentsOf(name);
              for (int k = gone.size() - 1; k >= 0; k--) {
                ((ArrayNode) m.get("segments")).remove((int) gone.get(k));
              }
            });
        tree(label + "missing its type", m -> col(m, at).remove("type"));
        if (c + 1 < n) {
          tree(
              "columns " + c + " and " + (c + 1) + " swapped in the schema",
              m -> {
                ArrayNode schema = (ArrayNode) m.get("schema");
                JsonNode a = schema.get(at);
                schema.set(at, schema.get(at + 1));
                schema.set(at + 1, a);
              });
        }
        if (c > 0) {
          tree(
              label + "named as column " + (c - 1), m -> col(m, at).put("name", names.get(at - 1)));
        }
        for (int o = 0; o < n; o++) {
          if (o != c && types.get(o).equals(types.get(c))) {
            String other = names.get(o);
            tree(
                label + "and '" + other + "' (same type) swap names everywhere",
                m -> {
                  for (int k = 0; k < n; k++) {
                    JsonNode nameNode = col(m, k).get("name");
                    if (nameNode.textValue().equals(name)) {
                      col(m, k).put("name", other);
                    } else if (nameNode.textValue().equals(other)) {
                      col(m, k).put("name", name);
                    }
                  }
                  for (int i = 0; i < segmentCount(); i++) {
                    String s = seg(m, i).get("column").textValue();
                    if (s.equals(name)) {
                      seg(m, i).put("column", other);
                    } else if (s.equals(other)) {
                      seg(m, i).put("column", name);
                    }
                  }
                });
            tree(
                label + "segments given to '" + other + "' (same type)",
                m -> {
                  for (int i : segmentsOf(name)) {
                    seg(m, i).put("column", other);
                  }
                });
          }
        }
      }
      tree("column name empty", m -> col(m, 0).put("name", ""));
      tree("column name with a slash", m -> col(m, 0).put("name", "a/b"));
      tree(
          "column name differing only in case from another",
          m -> col(m, 1).put("name", names.get(0).toUpperCase(Locale.ROOT)));
      for (String type : List.of("int128", "decimal(40,2)", "decimal(5,6)", "INT64", "list")) {
        tree("column type '" + type + "'", m -> col(m, 0).put("type", type));
      }
      tree("column type as a number", m -> col(m, 0).put("type", 64));
      tree("column with an unknown field", m -> col(m, 0).put("comment", "x"));
      tree(
          "an extra column without segments",
          m ->
              ((ArrayNode) m.get("schema"))
                  .addObject()
                  .put("name", "extra")
                  .put("type", "int64")
                  .put("nullable", true));
    }

    private void segmentRanges() {
      int total = rowGroups.size();
      for (int i = 0; i < segmentCount(); i++) {
        int at = i;
        long first = segment(i).get("firstRowGroup").longValue();
        long count = segment(i).get("rowGroupCount").longValue();
        String label = "segments[" + i + "] ";
        tree(label + "firstRowGroup + 1", m -> seg(m, at).put("firstRowGroup", first + 1));
        if (first > 0) {
          tree(label + "firstRowGroup - 1", m -> seg(m, at).put("firstRowGroup", first - 1));
        }
        tree(label + "firstRowGroup -1", m -> seg(m, at).put("firstRowGroup", -1));
        if (i % 2 == 1) {
          continue;
        }
        tree(label + "firstRowGroup past the end", m -> seg(m, at).put("firstRowGroup", total));
        tree(
            label + "firstRowGroup as a string",
            m -> seg(m, at).put("firstRowGroup", Long.toString(first)));
        tree(label + "rowGroupCount 0", m -> seg(m, at).put("rowGroupCount", 0));
        if (i % 3 == 0) {
          tree(
              label + "rowGroupCount + 1 (and one more stats entry)",
              m -> {
                seg(m, at).put("rowGroupCount", count + 1);
                ((ArrayNode) seg(m, at).get("stats")).add(seg(m, at).get("stats").get(0));
              });
          if (count > 1) {
            tree(
                label + "rowGroupCount - 1 (and one stats entry less)",
                m -> {
                  seg(m, at).put("rowGroupCount", count - 1);
                  ((ArrayNode) seg(m, at).get("stats")).remove((int) count - 1);
                });
          }
          tree(
              label + "rowGroupCount as a fraction",
              m -> seg(m, at).put("rowGroupCount", count + 0.0));
        }
      }
    }

    private void segmentFiles() {
      for (int i = 0; i < segmentCount(); i++) {
        int at = i;
        JsonNode s = segment(i);
        String column = s.get("column").textValue();
        int index = names.indexOf(column);
        String path = s.get("path").textValue();
        String file = path.substring(path.lastIndexOf('/') + 1);
        long first = s.get("firstRowGroup").longValue();
        String label = "segments[" + i + "] ";
        // Another column's file: same type first, then one of another type.
        for (int o = 0; o < names.size(); o++) {
          int other = segmentAt(names.get(o), first);
          if (o == index || other < 0) {
            continue;
          }
          boolean sameType = types.get(o).equals(types.get(index));
          if (sameType || (o == (index + 1) % names.size() && i % 2 == 0)) {
            JsonNode theirs = segment(other);
            tree(
                label
                    + "path to column '"
                    + names.get(o)
                    + "''s file"
                    + (sameType ? " (same type)" : ""),
                m -> {
                  seg(m, at).put("path", theirs.get("path").textValue());
                  seg(m, at).put("device", theirs.get("device").textValue());
                });
          }
        }
        // Another segment's file of the same column: referred to twice, or the two swap files.
        for (int other : segmentsOf(column)) {
          if (other > i) {
            JsonNode theirs = segment(other);
            tree(
                label + "and segments[" + other + "] swap files",
                m -> {
                  seg(m, at).put("path", theirs.get("path").textValue());
                  seg(m, at).put("device", theirs.get("device").textValue());
                  seg(m, other).put("path", path);
                  seg(m, other).put("device", s.get("device").textValue());
                });
          }
          if (other != i && i % 2 == 1) {
            JsonNode theirs = segment(other);
            tree(
                label + "path to segments[" + other + "]'s file",
                m -> {
                  seg(m, at).put("path", theirs.get("path").textValue());
                  seg(m, at).put("device", theirs.get("device").textValue());
                });
          }
        }
        if (i % 3 != 0) {
          continue;
        }
        String folder = tableId + "/" + index + "/";
        int otherIndex = (index + 1) % names.size();
        for (String bad :
            List.of(
                tableId + "/" + otherIndex + "/" + file,
                folder + "no-such-file.parquet",
                "../" + path,
                folder + "../" + index + "/" + file,
                folder + "./" + file,
                tableId + "//" + index + "/" + file,
                "/" + path,
                path.replace('/', '\\'),
                "00000000-0000-0000-0000-000000000000/" + index + "/" + file,
                path + "/",
                "")) {
          tree(label + "path '" + bad + "'", m -> seg(m, at).put("path", bad));
        }
        String device = s.get("device").textValue();
        tree(label + "device empty", m -> seg(m, at).put("device", ""));
        tree(label + "device as a number", m -> seg(m, at).put("device", 1));
        for (String d : TestPool.IDS) {
          if (!d.equals(device)) {
            tree(label + "device '" + d + "'", m -> seg(m, at).put("device", d));
            break;
          }
        }
      }
    }

    private void segmentFields() {
      String[] fields = {
        "column",
        "device",
        "path",
        "codec",
        "firstRowGroup",
        "rowGroupCount",
        "fileBytes",
        "compressedBytes",
        "uncompressedBytes",
        "checksum",
        "stats"
      };
      Random random = new Random(28);
      for (int i = 0; i < segmentCount(); i++) {
        int at = i;
        JsonNode s = segment(i);
        String label = "segments[" + i + "] ";
        String codec = s.get("codec").textValue();
        for (String c : List.of("none", "lz4", "zstd")) {
          if (!c.equals(codec) && i % 2 == 0) {
            tree(label + "codec " + c, m -> seg(m, at).put("codec", c));
          }
        }
        long fileBytes = s.get("fileBytes").longValue();
        long compressed = s.get("compressedBytes").longValue();
        long uncompressed = s.get("uncompressedBytes").longValue();
        if (i % 2 == 1) {
          tree(label + "fileBytes + 1", m -> seg(m, at).put("fileBytes", fileBytes + 1));
          tree(
              label + "compressedBytes - 1",
              m -> seg(m, at).put("compressedBytes", compressed - 1));
        } else {
          tree(label + "fileBytes - 1", m -> seg(m, at).put("fileBytes", fileBytes - 1));
          tree(
              label + "uncompressedBytes + 1",
              m -> seg(m, at).put("uncompressedBytes", uncompressed + 1));
        }
        if (i % 4 != 0) {
          continue;
        }
        tree(label + "codec 'ZSTD'", m -> seg(m, at).put("codec", "ZSTD"));
        tree(label + "codec 'snappy'", m -> seg(m, at).put("codec", "snappy"));
        tree(label + "fileBytes -1", m -> seg(m, at).put("fileBytes", -1));
        tree(
            label + "compressedBytes beyond the file",
            m -> seg(m, at).put("compressedBytes", fileBytes + 1));
        tree(label + "uncompressedBytes -1", m -> seg(m, at).put("uncompressedBytes", -1));
        tree(
            label + "fileBytes as a string",
            m -> seg(m, at).put("fileBytes", Long.toString(fileBytes)));
        String checksum = s.get("checksum").textValue();
        tree(
            label + "checksum in upper case",
            m -> seg(m, at).put("checksum", checksum.toUpperCase(Locale.ROOT)));
        tree(
            label + "checksum of 7 digits",
            m -> seg(m, at).put("checksum", checksum.substring(0, checksum.length() - 1)));
        tree(
            label + "checksum without its prefix",
            m -> seg(m, at).put("checksum", checksum.substring("crc32c:".length())));
        tree(label + "checksum as a number", m -> seg(m, at).put("checksum", 12345678));
        tree(label + "column as a number", m -> seg(m, at).put("column", 0));
        tree(label + "column unknown", m -> seg(m, at).put("column", "nope"));
        String field = fields[random.nextInt(fields.length)];
        tree(label + "missing " + field, m -> seg(m, at).remove(field));
        tree(label + "unknown field", m -> seg(m, at).put("rows", 1000));
      }
    }

    private void segmentStats() {
      for (int i = 0; i < segmentCount(); i += 3) {
        int at = i;
        JsonNode s = segment(i);
        String column = s.get("column").textValue();
        int index = names.indexOf(column);
        long group = s.get("firstRowGroup").longValue();
        long rows = rowGroups.get((int) group);
        String label = "segments[" + i + "].stats[0] ";
        UnaryOperator<ObjectNode> stats0 = m -> (ObjectNode) seg(m, at).get("stats").get(0);
        tree(label + "nulls -1", m -> stats0.apply(m).put("nulls", -1));
        tree(label + "nulls beyond the rows", m -> stats0.apply(m).put("nulls", rows + 1));
        tree(label + "nulls as a string", m -> stats0.apply(m).put("nulls", "0"));
        tree(label + "missing nulls", m -> stats0.apply(m).remove("nulls"));
        tree(label + "missing min", m -> stats0.apply(m).remove("min"));
        tree(label + "unknown field", m -> stats0.apply(m).put("count", rows));
        tree(
            "segments[" + i + "] without its last stats entry",
            m -> ((ArrayNode) seg(m, at).get("stats")).remove(s.get("stats").size() - 1));
        tree(
            "segments[" + i + "] with an extra stats entry",
            m -> ((ArrayNode) seg(m, at).get("stats")).add(s.get("stats").get(0)));
        JsonNode min = s.get("stats").get(0).get("min");
        JsonNode max = s.get("stats").get(0).get("max");
        if (!min.isNull() && !max.isNull() && !min.equals(max) && !min.isTextual()
            || types.get(index).startsWith("decimal")) {
          tree(
              label + "min and max swapped",
              m -> {
                stats0.apply(m).set("min", max);
                stats0.apply(m).set("max", min);
              });
        }
        tree(label + "min only", m -> stats0.apply(m).putNull("max"));
        tree(label + "min as an object", m -> stats0.apply(m).putObject("min"));
        tree(label + "min as an array", m -> stats0.apply(m).putArray("min"));
        if (min.isNumber()) {
          tree(label + "min as a string", m -> stats0.apply(m).put("min", min.asText()));
          tree(label + "min 2^70", m -> stats0.apply(m).put("min", BigInteger.ONE.shiftLeft(70)));
        } else if (min.isTextual()) {
          tree(label + "min as a number", m -> stats0.apply(m).put("min", 1));
          tree(label + "min as '12.5e3x'", m -> stats0.apply(m).put("min", "12.5e3x"));
        }
        if (types.get(index).startsWith("decimal") && min.isTextual()) {
          tree(
              label + "min with another scale",
              m ->
                  stats0
                      .apply(m)
                      .put(
                          "min",
                          new java.math.BigDecimal(min.textValue())
                              .setScale(new java.math.BigDecimal(min.textValue()).scale() + 1)
                              .toPlainString()));
        }
        if (types.get(index).matches("int8|int16|int32|date") && min.isIntegralNumber()) {
          tree(label + "min out of the type's range", m -> stats0.apply(m).put("min", 1L << 40));
        }
        if (!nullable.get(index)) {
          tree(label + "nulls in a not-null column", m -> stats0.apply(m).put("nulls", 1));
        }
      }
    }

    private void segmentLists() {
      int n = segmentCount();
      tree(
          "segments reversed",
          m -> {
            ArrayNode a = (ArrayNode) m.get("segments");
            List<JsonNode> all = new ArrayList<>();
            a.forEach(all::add);
            Collections.reverse(all);
            a.removeAll();
            a.addAll(all);
          });
      tree(
          "segments shuffled",
          m -> {
            ArrayNode a = (ArrayNode) m.get("segments");
            List<JsonNode> all = new ArrayList<>();
            a.forEach(all::add);
            Collections.shuffle(all, new Random(28));
            a.removeAll();
            a.addAll(all);
          });
      tree("another commit time", m -> m.put("committedAt", "2020-01-01T00:00:00Z"));
      tree("another operation", m -> m.put("operation", "rewrite"));
      tree("another valid checksum", m -> seg(m, 0).put("checksum", "crc32c:00000000"));
      tree("an extra property", m -> ((ObjectNode) m.get("properties")).put("x.y", "z"));
      for (int i = 0; i < n; i++) {
        int at = i;
        String label = "segments[" + i + "] ";
        tree(label + "removed", m -> ((ArrayNode) m.get("segments")).remove(at));
        if (i % 3 == 0) {
          tree(
              label + "listed twice",
              m -> ((ArrayNode) m.get("segments")).insert(at, segment(at).deepCopy()));
          tree(label + "as a string", m -> ((ArrayNode) m.get("segments")).set(at, "x"));
        }
        // Merged with the column's next segment: one entry for both ranges, the first's file.
        JsonNode s = segment(i);
        String column = s.get("column").textValue();
        long end = s.get("firstRowGroup").longValue() + s.get("rowGroupCount").longValue();
        int next = segmentAt(column, end);
        if (next >= 0 && i % 2 == 0) {
          JsonNode theirs = segment(next);
          tree(
              label + "merged with segments[" + next + "]",
              m -> {
                ObjectNode mine = seg(m, at);
                mine.put(
                    "rowGroupCount",
                    s.get("rowGroupCount").longValue() + theirs.get("rowGroupCount").longValue());
                ((ArrayNode) mine.get("stats")).addAll((ArrayNode) theirs.get("stats").deepCopy());
                ((ArrayNode) m.get("segments")).remove(next);
              });
        }
      }
    }
  }
}
