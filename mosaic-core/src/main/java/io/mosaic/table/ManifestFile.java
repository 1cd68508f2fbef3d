package io.mosaic.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mosaic.device.Codec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The manifest on disk: JSON, with a CRC32C of the manifest's exact bytes so truncation and
 * corruption are detected (docs/format.md):
 *
 * <pre>{"format":"mosaic-manifest","formatVersion":1,"crc32c":"0a1b2c3d","manifest":{...}}</pre>
 */
final class ManifestFile {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final String PREFIX =
      "{\"format\":\"mosaic-manifest\",\"formatVersion\":"
          + Manifest.FORMAT_VERSION
          + ",\"crc32c\":\"";
  private static final String MIDDLE = "\",\"manifest\":";
  private static final int CRC_HEX = 8;

  private ManifestFile() {}

  static byte[] encode(Manifest m) throws IOException {
    byte[] body = JSON.writeValueAsBytes(toJson(m));
    String head = PREFIX + crc(body, 0, body.length) + MIDDLE;
    byte[] out = new byte[head.length() + body.length + 2];
    System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, out, 0, head.length());
    System.arraycopy(body, 0, out, head.length(), body.length);
    out[out.length - 2] = '}';
    out[out.length - 1] = '\n';
    return out;
  }

  /** Decodes a manifest; {@code where} names the file in errors. */
  static Manifest decode(byte[] bytes, String where) {
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
    try {
      return fromJson(JSON.readTree(Arrays.copyOfRange(bytes, headLength, bytes.length - 2)));
    } catch (IOException | RuntimeException e) {
      throw new CorruptTableException(where + " cannot be read: " + e.getMessage(), e);
    }
  }

  static String crc(byte[] bytes, int offset, int length) {
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
    for (ColumnSpec c : m.schema().columns()) {
      schema
          .addObject()
          .put("name", c.name())
          .put("type", c.type().toString())
          .put("nullable", c.nullable());
    }
    ObjectNode props = root.putObject("properties");
    m.properties().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> props.put(e.getKey(), e.getValue()));
    ArrayNode groups = root.putArray("rowGroups");
    m.rowGroups().forEach(groups::add);
    ArrayNode segments = root.putArray("segments");
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
      ArrayNode stats = o.putArray("stats");
      for (RowGroupStats st : s.stats()) {
        ObjectNode so = stats.addObject();
        so.set("min", ValueCodec.toJson(type, st.min()));
        so.set("max", ValueCodec.toJson(type, st.max()));
        so.put("nulls", st.nulls());
      }
    }
    return root;
  }

  private static Manifest fromJson(JsonNode root) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (JsonNode c : root.required("schema")) {
      columns.add(
          new ColumnSpec(
              c.required("name").textValue(),
              ColumnType.parse(c.required("type").textValue()),
              c.required("nullable").booleanValue()));
    }
    TableSchema schema = new TableSchema(columns);
    Map<String, String> props = new LinkedHashMap<>();
    root.required("properties")
        .properties()
        .forEach(e -> props.put(e.getKey(), e.getValue().textValue()));
    List<Long> groups = new ArrayList<>();
    root.required("rowGroups").forEach(g -> groups.add(g.longValue()));
    List<SegmentEntry> segments = new ArrayList<>();
    for (JsonNode s : root.required("segments")) {
      String column = s.required("column").textValue();
      ColumnType type = schema.column(column).type();
      List<RowGroupStats> stats = new ArrayList<>();
      for (JsonNode st : s.required("stats")) {
        stats.add(
            new RowGroupStats(
                ValueCodec.fromJson(type, st.get("min")),
                ValueCodec.fromJson(type, st.get("max")),
                st.required("nulls").longValue()));
      }
      segments.add(
          new SegmentEntry(
              column,
              s.required("device").textValue(),
              s.required("path").textValue(),
              Codec.fromConfigName(s.required("codec").textValue())
                  .orElseThrow(
                      () -> new IllegalArgumentException("unknown codec " + s.get("codec"))),
              s.required("firstRowGroup").intValue(),
              s.required("rowGroupCount").intValue(),
              s.required("fileBytes").longValue(),
              s.required("compressedBytes").longValue(),
              s.required("uncompressedBytes").longValue(),
              s.required("checksum").textValue(),
              stats));
    }
    return new Manifest(
        root.required("tableId").textValue(),
        root.required("version").longValue(),
        root.required("operation").textValue(),
        Instant.parse(root.required("committedAt").textValue()),
        schema,
        props,
        groups,
        segments);
  }
}
