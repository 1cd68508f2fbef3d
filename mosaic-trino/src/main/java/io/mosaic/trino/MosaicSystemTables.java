package io.mosaic.trino;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.VarcharType.VARCHAR;

import io.airlift.slice.Slices;
import io.mosaic.design.DesignExecutor;
import io.mosaic.design.MoveQueue;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.operations.MaintainRequest;
import io.mosaic.operations.MaintainResult;
import io.mosaic.operations.MaintenanceExecutor;
import io.mosaic.operations.PlaceRequest;
import io.mosaic.operations.PlaceResult;
import io.mosaic.operations.PlacementStatus;
import io.mosaic.operations.ResultColumn;
import io.mosaic.operations.VersionHistory;
import io.mosaic.placement.StrategyName;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Metadata tables the way Iceberg exposes them: {@code "lineitem$placement"} (where each column
 * lives: device, codec, bytes), {@code "lineitem$segments"} (every segment of the latest version)
 * {@code "lineitem$plan"} (where the planner would put each column now, per strategy), and {@code
 * "lineitem$versions"} and {@code "lineitem$history"} (the versions time travel can read). The
 * placement and plan rows come from the maintenance library (docs/operations.md).
 */
final class MosaicSystemTables {
  private static final String PLACEMENT = "placement";
  private static final String SEGMENTS = "segments";
  private static final String PLAN = "plan";
  private static final String MOVES = "moves";
  private static final String VERSIONS = "versions";
  private static final String HISTORY = "history";

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
    if (!(kind.equals(PLACEMENT)
            || kind.equals(SEGMENTS)
            || kind.equals(PLAN)
            || kind.equals(MOVES)
            || kind.equals(VERSIONS)
            || kind.equals(HISTORY))
        || !storage.schemaExists(base.getSchemaName())
        || !storage.tableExists(base)) {
      return Optional.empty();
    }
    return Optional.of(
        switch (kind) {
          case PLACEMENT -> placement(storage, base, name);
          case SEGMENTS -> segments(storage, base, name);
          case MOVES -> moves(storage, base, name);
          case VERSIONS ->
              table(
                  name,
                  columns(VersionHistory.VERSION_COLUMNS),
                  constraint -> history(storage, base).versionRows());
          case HISTORY ->
              table(
                  name,
                  columns(VersionHistory.HISTORY_COLUMNS),
                  constraint -> history(storage, base).historyRows());
          default -> plan(storage, base, name);
        });
  }

  private static ColumnMetadata column(String name, Type type) {
    return new ColumnMetadata(name, type);
  }

  /** The library's {@link PlacementStatus}: the same rows as Spark's {@code CALL placement}. */
  private static SystemTable placement(
      MosaicStorage storage, SchemaTableName base, SchemaTableName name) {
    return table(
        name,
        columns(PlacementStatus.COLUMNS),
        constraint ->
            MosaicStorage.call(
                () ->
                    new MaintenanceExecutor(storage.pool(), ignored -> storage.open(base))
                        .status(base.toString())
                        .rows()));
  }

  /**
   * The table's transformation (docs/physical-design.md): the library's {@code maintain} status,
   * one row per step; no rows when none was ever started.
   */
  private static SystemTable moves(
      MosaicStorage storage, SchemaTableName base, SchemaTableName name) {
    return table(
        name,
        columns(MaintainResult.COLUMNS),
        constraint ->
            MosaicStorage.call(
                () -> {
                  if (MoveQueue.read(storage.open(base)).isEmpty()) {
                    return List.of();
                  }
                  try {
                    return new MaintenanceExecutor(storage.pool(), ignored -> storage.open(base))
                        .maintain(
                            MaintainRequest.parse(
                                base.toString(),
                                "status",
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null),
                            new DesignExecutor.Listener() {},
                            false)
                        .rows();
                  } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                }));
  }

  /** The versions time travel can read ({@code FOR VERSION AS OF}): core's, via the library. */
  private static VersionHistory history(MosaicStorage storage, SchemaTableName base) {
    return MosaicStorage.call(() -> VersionHistory.of(storage.open(base)));
  }

  private static List<ColumnMetadata> columns(List<ResultColumn> columns) {
    return columns.stream().map(c -> column(c.name(), MosaicPlanner.type(c))).toList();
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
        constraint -> {
          Manifest m = MosaicStorage.call(() -> storage.open(base).latest());
          List<List<Object>> out = new ArrayList<>();
          for (String c : m.schema().names()) {
            for (SegmentEntry s : m.segmentsOf(c)) {
              out.add(
                  List.of(
                      c,
                      s.device(),
                      s.path(),
                      s.codec().configName(),
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

  /**
   * What each strategy would do now, as a dry run of {@code place} with the library's defaults
   * (docs/operations.md), computed when queried; a filter on {@code strategy} computes only the
   * strategies it keeps. The columns are Spark's {@code CALL place} result's ({@link
   * PlaceResult#COLUMNS}); the whole-plan figures repeat on every row.
   */
  private static SystemTable plan(
      MosaicStorage storage, SchemaTableName base, SchemaTableName name) {
    int strategyColumn = ResultColumn.names(PlaceResult.COLUMNS).indexOf("strategy");
    return table(
        name,
        columns(PlaceResult.COLUMNS),
        constraint -> {
          Domain strategies =
              constraint.isNone()
                  ? Domain.none(VARCHAR)
                  : constraint
                      .getDomains()
                      .orElseThrow()
                      .getOrDefault(strategyColumn, Domain.all(VARCHAR));
          List<List<Object>> out = new ArrayList<>();
          for (String strategy : StrategyName.spellings()) {
            if (!strategies.includesNullableValue(Slices.utf8Slice(strategy))) {
              continue;
            }
            PlaceRequest request = PlaceRequest.builder(base.toString()).strategy(strategy).build();
            out.addAll(MosaicPlanner.place(storage, base, request).rows());
          }
          return out;
        });
  }

  private static SystemTable table(
      SchemaTableName name,
      List<ColumnMetadata> columns,
      Function<TupleDomain<Integer>, List<List<Object>>> rows) {
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
        for (List<Object> row : rows.apply(constraint)) {
          Object[] values = row.toArray();
          for (int i = 0; i < values.length; i++) {
            if (values[i] instanceof Instant t) {
              values[i] = packDateTimeWithZone(t.toEpochMilli(), UTC_KEY);
            }
          }
          set.addRow(values);
        }
        return set.build().cursor();
      }
    };
  }
}
