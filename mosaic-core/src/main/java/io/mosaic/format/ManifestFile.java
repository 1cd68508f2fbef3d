package io.mosaic.format;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mosaic.MosaicException;
import io.mosaic.config.Codec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The manifest on disk: JSON, with a CRC32C of the manifest's exact bytes so truncation and
 * corruption are detected (docs/format.md):
 *
 * <pre>{"format":"mosaic-manifest","formatVersion":1,"crc32c":"0a1b2c3d","manifest":{...}}</pre>
 */
public final class ManifestFile {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  // Reading refuses what a lenient parser would let through: a key given twice (the last one would
  // win silently) and anything after the body's closing brace.
  private static final ObjectMapper READER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();
  private static final String PREFIX =
      "{\"format\":\"mosaic-manifest\",\"formatVersion\":"
          + Manifest.FORMAT_VERSION
          + ",\"crc32c\":\"";
  private static final String MIDDLE = "\",\"manifest\":";
  private static final int CRC_HEX = 8;

  private ManifestFile() {}

  public static byte[] encode(Manifest m) throws IOException {
    byte[] body = JSON.writeValueAsBytes(toJson(m));
    String head = PREFIX + crc(body, 0, body.length) + MIDDLE;
    byte[] out = new byte[head.length() + body.length + 2];
    System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, out, 0, head.length());
    System.arraycopy(body, 0, out, head.length(), body.length);
    out[out.length - 2] = '}';
    out[out.length - 1] = '\n';
    return out;
  }

  /**
   * Decodes a manifest and checks it ({@link Manifest#check}): a file whose checksum is right but
   * whose content breaks the format is as corrupt as a truncated one. {@code where} names the file
   * in errors.
   */
  public static Manifest decode(byte[] bytes, String where) {
    int headLength = PREFIX.length() + CRC_HEX + MIDDLE.length();
    String head =
        new String(bytes, 0, Math.min(bytes.length, headLength), StandardCharsets.US_ASCII);
    if (bytes.length < headLength + 2
        || !head.startsWith(PREFIX)
        || !head.endsWith(MIDDLE)
        || bytes[bytes.length - 1] != '\n'
        || bytes[bytes.length - 2] != '}') {
      throw new CorruptTableException(
          where + " is not a complete Mosaic manifest (truncated, or not written by Mosaic)");
    }
    String expected = head.substring(PREFIX.length(), PREFIX.length() + CRC_HEX);
    String actual = crc(bytes, headLength, bytes.length - 2 - headLength);
    if (!expected.equals(actual)) {
      throw new CorruptTableException(
          where + " is corrupt: checksum crc32c " + actual + " where the file records " + expected);
    }
    Manifest m;
    try {
      m = fromJson(READER.readTree(Arrays.copyOfRange(bytes, headLength, bytes.length - 2)), where);
    } catch (CorruptTableException e) {
      throw e;
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      throw new CorruptTableException(
          where
              + " is not valid JSON: "
              + e.getOriginalMessage()
              + (at == null
                  ? ""
                  : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + " of the body)"),
          e);
    } catch (IOException | RuntimeException e) {
      throw new CorruptTableException(where + " cannot be read: " + e.getMessage(), e);
    }
    m.check(where);
    return m;
  }

  public static String crc(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return String.format(Locale.ROOT, "%08x", crc.getValue());
  }

  private static ObjectNode toJson(Manifest m) {
    ObjectNode root = JSON.createObjectNode();
    root.put("tableId", m.tableId());
    root.put("version", m.version());
    root.put("operation", m.operation());
    root.put("committedAt", m.committedAt().toString());
    ArrayNode schema = root.putArray("schema");
    // Ids are written only once they differ from positions (after an ALTER TABLE), so a table never
    // altered keeps the exact bytes, and readers, of the format before ids.
    boolean ids = !m.schema().positionalIds();
    for (int i = 0; i < m.schema().columns().size(); i++) {
      ColumnSpec c = m.schema().columns().get(i);
      ObjectNode o =
          schema
              .addObject()
              .put("name", c.name())
              .put("type", c.type().toString())
              .put("nullable", c.nullable());
      if (ids) {
        o.put(COLUMN_ID, m.schema().ids().get(i));
      }
    }
    if (ids) {
      root.put(NEXT_COLUMN_ID, m.schema().nextColumnId());
    }
    ObjectNode props = root.putObject("properties");
    m.properties().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> props.put(e.getKey(), e.getValue()));
    ArrayNode groups = root.putArray("rowGroups");
    m.rowGroups().forEach(groups::add);
    ArrayNode segments = root.putArray("segments");
    writeSegments(m, segments);
    if (!m.deletions().isEmpty()) {
      ObjectNode deletions = root.putObject(DELETIONS);
      m.deletions().forEach((g, d) -> deletions.put(Integer.toString(g), d.toBase64()));
    }
    return root;
  }

  private static void writeSegments(Manifest m, ArrayNode segments) {
    for (SegmentEntry s : m.segments()) {
      ColumnType type = m.schema().column(s.column()).type();
      ObjectNode o = segments.addObject();
      o.put("column", s.column());
      o.put("device", s.device());
      o.put("path", s.path());
      o.put("codec", s.codec().configName());
      o.put("firstRowGroup", s.firstRowGroup());
      o.put("rowGroupCount", s.rowGroupCount());
      o.put("fileBytes", s.fileBytes());
      o.put("compressedBytes", s.compressedBytes());
      o.put("uncompressedBytes", s.uncompressedBytes());
      o.put("checksum", s.checksum());
      if (!s.chunkChecksums().isEmpty()) {
        ArrayNode chunks = o.putArray(CHUNK_CHECKSUMS);
        s.chunkChecksums().forEach(chunks::add);
      }
      ArrayNode stats = o.putArray("stats");
      for (RowGroupStats st : s.stats()) {
        ObjectNode so = stats.addObject();
        so.set("min", ValueCodec.toJson(type, st.min()));
        so.set("max", ValueCodec.toJson(type, st.max()));
        so.put("nulls", st.nulls());
        if (st.distinct() != null) {
          so.put(DISTINCT, st.distinct());
        }
        if (st.dataBytes() != -1) {
          so.put(DATA_BYTES, st.dataBytes());
        }
      }
    }
  }

  /** Field names of format version 1, in the order written; no others are allowed. */
  private static final String[] TOP =
      "tableId version operation committedAt schema properties rowGroups segments".split(" ");

  private static final String[] COLUMN = {"name", "type", "nullable"};
  // Optional, together (docs/format.md, "Column ids"): without them columns are numbered by
  // position from 0.
  private static final String COLUMN_ID = "id";
  private static final String NEXT_COLUMN_ID = "nextColumnId";
  private static final String[] COLUMN_WITH_ID = {"name", "type", "nullable", COLUMN_ID};
  private static final String[] TOP_WITH_IDS = Arrays.copyOf(TOP, TOP.length + 1);
  private static final String[] SEGMENT =
      ("column device path codec firstRowGroup rowGroupCount fileBytes compressedBytes"
              + " uncompressedBytes checksum stats")
          .split(" ");
  private static final String[] STATS = {"min", "max", "nulls"};
  // Optional (docs/format.md): statistics written before them have neither; ANALYZE adds them.
  private static final String DISTINCT = "distinct";
  private static final String DATA_BYTES = "dataBytes";
  // Optional: segments written before chunks were checksummed have none.
  private static final String CHUNK_CHECKSUMS = "chunkChecksums";
  // Optional: a version without deleted rows has none. A reader that predates them refuses the
  // field, so it can never return deleted rows.
  private static final String DELETIONS = "deletions";
  private static final String[] SEGMENT_WITH_CHUNKS = Arrays.copyOf(SEGMENT, SEGMENT.length + 1);

  static {
    SEGMENT_WITH_CHUNKS[SEGMENT.length] = CHUNK_CHECKSUMS;
    TOP_WITH_IDS[TOP.length] = NEXT_COLUMN_ID;
  }

  /** The fields a stats object must have: the required ones and the optional ones it has. */
  private static String[] statsFields(JsonNode st) {
    if (st == null || !st.isObject()) {
      return STATS;
    }
    List<String> names = new ArrayList<>(Arrays.asList(STATS));
    for (String optional : new String[] {DISTINCT, DATA_BYTES}) {
      if (st.has(optional)) {
        names.add(optional);
      }
    }
    return names.toArray(new String[0]);
  }

  /**
   * Builds the manifest from its JSON, strictly: every field of format version 1 present with its
   * JSON type (integers as JSON integers, strings as strings, ...), no other field. {@link
   * Manifest#check} then checks what the values mean.
   */
  private static Manifest fromJson(JsonNode root, String where) {
    Strict json = new Strict(where);
    boolean withIds = root != null && root.has(NEXT_COLUMN_ID);
    List<String> top = new ArrayList<>(Arrays.asList(withIds ? TOP_WITH_IDS : TOP));
    if (root != null && root.has(DELETIONS)) {
      top.add(DELETIONS);
    }
    json.fields(root, "the manifest", top.toArray(new String[0]));
    List<ColumnSpec> columns = new ArrayList<>();
    List<Integer> ids = new ArrayList<>();
    JsonNode schemaNode = json.array(root, "schema", "");
    for (int i = 0; i < schemaNode.size(); i++) {
      JsonNode c = schemaNode.get(i);
      String at = "schema[" + i + "]";
      json.fields(c, at, withIds ? COLUMN_WITH_ID : COLUMN);
      if (withIds) {
        ids.add(json.int32(c, COLUMN_ID, at));
      }
      String typeName = json.text(c, "type", at);
      ColumnType type;
      try {
        type = ColumnType.parse(typeName);
      } catch (IllegalArgumentException | MosaicException e) {
        throw json.fail(at + ".type: " + e.getMessage());
      }
      if (!type.toString().equals(typeName)) {
        throw json.fail(at + ".type is '" + typeName + "', which the format spells '" + type + "'");
      }
      columns.add(new ColumnSpec(json.text(c, "name", at), type, json.bool(c, "nullable", at)));
    }
    TableSchema schema;
    try {
      schema =
          withIds
              ? new TableSchema(columns, ids, json.int32(root, NEXT_COLUMN_ID, ""))
              : new TableSchema(columns);
    } catch (IllegalArgumentException | MosaicException e) {
      throw json.fail("schema: " + e.getMessage());
    }
    Map<String, String> props = new LinkedHashMap<>();
    JsonNode propsNode = json.field(root, "properties", "");
    if (!propsNode.isObject()) {
      throw json.fail("properties is " + ValueCodec.describe(propsNode) + ", not a JSON object");
    }
    for (Map.Entry<String, JsonNode> e : propsNode.properties()) {
      props.put(e.getKey(), json.text(propsNode, e.getKey(), "properties"));
    }
    List<Long> groups = new ArrayList<>();
    JsonNode groupsNode = json.array(root, "rowGroups", "");
    for (int g = 0; g < groupsNode.size(); g++) {
      groups.add(json.integer(groupsNode.get(g), "rowGroups[" + g + "]"));
    }
    List<SegmentEntry> segments = new ArrayList<>();
    JsonNode segmentsNode = json.array(root, "segments", "");
    for (int i = 0; i < segmentsNode.size(); i++) {
      JsonNode s = segmentsNode.get(i);
      String at = "segments[" + i + "]";
      json.fields(s, at, s != null && s.has(CHUNK_CHECKSUMS) ? SEGMENT_WITH_CHUNKS : SEGMENT);
      List<String> chunkChecksums = new ArrayList<>();
      if (s.has(CHUNK_CHECKSUMS)) {
        JsonNode chunks = json.array(s, CHUNK_CHECKSUMS, at);
        for (int k = 0; k < chunks.size(); k++) {
          JsonNode c = chunks.get(k);
          if (!c.isTextual()) {
            throw json.fail(
                at + "." + CHUNK_CHECKSUMS + "[" + k + "] is " + ValueCodec.describe(c));
          }
          chunkChecksums.add(c.textValue());
        }
      }
      String column = json.text(s, "column", at);
      ColumnType type;
      try {
        type = schema.column(column).type();
      } catch (IllegalArgumentException | MosaicException e) {
        throw json.fail(at + " is of column '" + column + "': " + e.getMessage());
      }
      String codecName = json.text(s, "codec", at);
      Codec codec =
          Codec.fromConfigName(codecName)
              .filter(c -> c.configName().equals(codecName))
              .orElseThrow(
                  () ->
                      json.fail(
                          at + ".codec is '" + codecName + "', not one of " + Codec.allowed()));
      int count = json.int32(s, "rowGroupCount", at);
      JsonNode statsNode = json.array(s, "stats", at);
      if (statsNode.size() != count) {
        throw json.fail(
            at
                + " (column '"
                + column
                + "') has "
                + statsNode.size()
                + " stats for "
                + count
                + " row groups");
      }
      List<RowGroupStats> stats = new ArrayList<>();
      for (int k = 0; k < statsNode.size(); k++) {
        JsonNode st = statsNode.get(k);
        String sat = at + ".stats[" + k + "]";
        json.fields(st, sat, statsFields(st));
        stats.add(
            new RowGroupStats(
                json.value(type, st, "min", sat),
                json.value(type, st, "max", sat),
                json.integer(st, "nulls", sat),
                st.has(DISTINCT) ? json.text(st, DISTINCT, sat) : null,
                st.has(DATA_BYTES) ? json.integer(st, DATA_BYTES, sat) : -1));
      }
      segments.add(
          new SegmentEntry(
              column,
              json.text(s, "device", at),
              json.text(s, "path", at),
              codec,
              json.int32(s, "firstRowGroup", at),
              count,
              json.integer(s, "fileBytes", at),
              json.integer(s, "compressedBytes", at),
              json.integer(s, "uncompressedBytes", at),
              json.text(s, "checksum", at),
              stats,
              chunkChecksums));
    }
    String committed = json.text(root, "committedAt", "");
    Instant committedAt;
    try {
      committedAt = Instant.parse(committed);
    } catch (DateTimeParseException e) {
      throw json.fail("committedAt is '" + committed + "', not an ISO-8601 instant");
    }
    TreeMap<Integer, DeletedRows> deletions = new TreeMap<>();
    if (root.has(DELETIONS)) {
      JsonNode node = json.field(root, DELETIONS, "");
      if (!node.isObject()) {
        throw json.fail(DELETIONS + " is " + ValueCodec.describe(node) + ", not a JSON object");
      }
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        String at = DELETIONS + "." + e.getKey();
        int g;
        try {
          g = Integer.parseInt(e.getKey());
        } catch (NumberFormatException x) {
          throw json.fail(at + ": '" + e.getKey() + "' is not a row group number");
        }
        try {
          deletions.put(g, DeletedRows.fromBase64(json.text(node, e.getKey(), DELETIONS)));
        } catch (IllegalArgumentException x) {
          throw json.fail(at + ": " + x.getMessage());
        }
      }
    }
    return new Manifest(
        json.text(root, "tableId", ""),
        json.integer(root, "version", ""),
        json.text(root, "operation", ""),
        committedAt,
        schema,
        props,
        groups,
        segments,
        deletions);
  }

  /** Reads JSON values of the types the format gives them; anything else is corrupt. */
  private record Strict(String where) {
    CorruptTableException fail(String problem) {
      return new CorruptTableException(where + ": " + problem);
    }

    private static String name(String at, String field) {
      return at.isEmpty() ? field : at + "." + field;
    }

    /** {@code node} is an object with exactly these fields. */
    void fields(JsonNode node, String at, String[] names) {
      if (node == null || !node.isObject()) {
        throw fail(at + " is " + ValueCodec.describe(node) + ", not a JSON object");
      }
      for (String n : names) {
        if (!node.has(n)) {
          throw fail(at + " has no field '" + n + "'");
        }
      }
      if (node.size() != names.length) {
        for (Map.Entry<String, JsonNode> e : node.properties()) {
          String n = e.getKey();
          if (!Arrays.asList(names).contains(n)) {
            throw fail(
                at
                    + " has a field '"
                    + n
                    + "' that format version "
                    + Manifest.FORMAT_VERSION
                    + " does not define");
          }
        }
      }
    }

    JsonNode field(JsonNode node, String field, String at) {
      JsonNode value = node.get(field);
      if (value == null) {
        throw fail(name(at, field) + " is missing");
      }
      return value;
    }

    String text(JsonNode node, String field, String at) {
      JsonNode value = field(node, field, at);
      if (!value.isTextual()) {
        throw fail(name(at, field) + " is " + ValueCodec.describe(value) + ", not a JSON string");
      }
      return value.textValue();
    }

    boolean bool(JsonNode node, String field, String at) {
      JsonNode value = field(node, field, at);
      if (!value.isBoolean()) {
        throw fail(name(at, field) + " is " + ValueCodec.describe(value) + ", not a JSON boolean");
      }
      return value.booleanValue();
    }

    JsonNode array(JsonNode node, String field, String at) {
      JsonNode value = field(node, field, at);
      if (!value.isArray()) {
        throw fail(name(at, field) + " is " + ValueCodec.describe(value) + ", not a JSON array");
      }
      return value;
    }

    long integer(JsonNode node, String field, String at) {
      return integer(field(node, field, at), name(at, field));
    }

    /** A JSON integer that fits in 64 bits (no string, fraction or exponent form). */
    long integer(JsonNode value, String name) {
      if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
        throw fail(name + " is " + ValueCodec.describe(value) + ", not a JSON integer (64 bits)");
      }
      return value.longValue();
    }

    int int32(JsonNode node, String field, String at) {
      long value = integer(node, field, at);
      if (value != (int) value) {
        throw fail(name(at, field) + " is " + value + ", out of range (32 bits)");
      }
      return (int) value;
    }

    Object value(ColumnType type, JsonNode node, String field, String at) {
      try {
        return ValueCodec.fromJson(type, field(node, field, at));
      } catch (IllegalArgumentException | MosaicException e) {
        throw fail(name(at, field) + " " + e.getMessage());
      }
    }
  }
}
