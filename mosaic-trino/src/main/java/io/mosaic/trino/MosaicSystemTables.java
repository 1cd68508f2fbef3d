package io.mosaic.trino;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;

import io.mosaic.table.Manifest;
import io.mosaic.table.SegmentEntry;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Metadata tables the way Iceberg exposes them: {@code "lineitem$placement"} (where each column
 * lives: device, codec, bytes) and {@code "lineitem$segments"} (every segment of the latest
 * version).
 */
final class MosaicSystemTables {
  private static final String PLACEMENT = "placement";
  private static final String SEGMENTS = "segments";

  private MosaicSystemTables() {}

  static boolean isSystemTableName(String name) {
    return name.contains("$");
  }

  static Optional<SystemTable> forName(MosaicStorage storage, SchemaTableName name) {
    String full = name.getTableName();
    int dollar = full.indexOf('$');
    if (dollar < 0) {
      return Optional.empty();
    }
    SchemaTableName base = new SchemaTableName(name.getSchemaName(), full.substring(0, dollar));
    String kind = full.substring(dollar + 1);
    if (!(kind.equals(PLACEMENT) || kind.equals(SEGMENTS))
        || !storage.schemaExists(base.getSchemaName())
        || !storage.tableExists(base)) {
      return Optional.empty();
    }
    return Optional.of(
        kind.equals(PLACEMENT) ? placement(storage, base, name) : segments(storage, base, name));
  }

  private static ColumnMetadata column(String name, Type type) {
    return new ColumnMetadata(name, type);
  }

  private static SystemTable placement(
      MosaicStorage storage, SchemaTableName base, SchemaTableName name) {
    List<ColumnMetadata> columns =
        List.of(
            column("column_name", VARCHAR),
            column("device", VARCHAR),
            column("codec", VARCHAR),
            column("segments", BIGINT),
            column("compressed_bytes", BIGINT),
            column("uncompressed_bytes", BIGINT));
    return table(
        name,
        columns,
        () -> {
          Manifest m = MosaicStorage.call(() -> storage.open(base).latest());
          // One row per (column, device, codec), in the schema's column order.
          Map<List<String>, long[]> rows = new LinkedHashMap<>();
          for (String c : m.schema().names()) {
            for (SegmentEntry s : m.segmentsOf(c)) {
              long[] sums =
                  rows.computeIfAbsent(
                      List.of(c, s.device(), s.codec().toString()), k -> new long[3]);
              sums[0]++;
              sums[1] += s.compressedBytes();
              sums[2] += s.uncompressedBytes();
            }
          }
          List<List<Object>> out = new ArrayList<>();
          rows.forEach((k, v) -> out.add(List.of(k.get(0), k.get(1), k.get(2), v[0], v[1], v[2])));
          return out;
        });
  }

  private static SystemTable segments(
      MosaicStorage storage, SchemaTableName base, SchemaTableName name) {
    List<ColumnMetadata> columns =
        List.of(
            column("column_name", VARCHAR),
            column("device", VARCHAR),
            column("path", VARCHAR),
            column("codec", VARCHAR),
            column("first_row_group", INTEGER),
            column("row_groups", INTEGER),
            column("file_bytes", BIGINT),
            column("compressed_bytes", BIGINT),
            column("uncompressed_bytes", BIGINT),
            column("checksum", VARCHAR));
    return table(
        name,
        columns,
        () -> {
          Manifest m = MosaicStorage.call(() -> storage.open(base).latest());
          List<List<Object>> out = new ArrayList<>();
          for (String c : m.schema().names()) {
            for (SegmentEntry s : m.segmentsOf(c)) {
              out.add(
                  List.of(
                      c,
                      s.device(),
                      s.path(),
                      s.codec().toString(),
                      s.firstRowGroup(),
                      s.rowGroupCount(),
                      s.fileBytes(),
                      s.compressedBytes(),
                      s.uncompressedBytes(),
                      s.checksum()));
            }
          }
          return out;
        });
  }

  private static SystemTable table(
      SchemaTableName name,
      List<ColumnMetadata> columns,
      java.util.function.Supplier<List<List<Object>>> rows) {
    ConnectorTableMetadata metadata = new ConnectorTableMetadata(name, columns);
    return new SystemTable() {
      @Override
      public Distribution getDistribution() {
        return Distribution.SINGLE_COORDINATOR;
      }

      @Override
      public ConnectorTableMetadata getTableMetadata() {
        return metadata;
      }

      @Override
      public RecordCursor cursor(
          ConnectorTransactionHandle transaction,
          ConnectorSession session,
          TupleDomain<Integer> constraint) {
        InMemoryRecordSet.Builder set =
            InMemoryRecordSet.builder(columns.stream().map(ColumnMetadata::getType).toList());
        for (List<Object> row : rows.get()) {
          set.addRow(row.toArray());
        }
        return set.build().cursor();
      }
    };
  }
}
