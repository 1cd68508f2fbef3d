package io.mosaic.trino;

import static io.mosaic.trino.MosaicStorage.call;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.SCHEMA_ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.TABLE_ALREADY_EXISTS;

import com.google.inject.Inject;
import io.airlift.slice.Slice;
import io.mosaic.MosaicException;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.DeletedRows;
import io.mosaic.format.Manifest;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.operations.MaintenanceExecutor;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.SchemaChange;
import io.mosaic.table.WriteResult;
import io.mosaic.trace.QueryClock;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.Assignment;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ColumnPosition;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorAnalyzeMetadata;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorMergeTableHandle;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorOutputMetadata;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTableLayout;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTableProperties;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.connector.ProjectionApplicationResult;
import io.trino.spi.connector.RelationColumnsMetadata;
import io.trino.spi.connector.RetryMode;
import io.trino.spi.connector.RowChangeParadigm;
import io.trino.spi.connector.SaveMode;
import io.trino.spi.connector.SchemaNotFoundException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.connector.TableNotFoundException;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.security.TrinoPrincipal;
import io.trino.spi.statistics.ComputedStatistics;
import io.trino.spi.statistics.TableStatisticType;
import io.trino.spi.statistics.TableStatistics;
import io.trino.spi.statistics.TableStatisticsMetadata;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Schemas, tables and commits of a Mosaic catalog. Reads pin the latest manifest version when the
 * query resolves the table; writes commit one new version per statement (docs/format.md, "Writing
 * and committing").
 */
final class MosaicMetadata implements ConnectorMetadata {
  /**
   * Manifest property keeping a column's {@code varchar(n)} length: core stores strings unbounded,
   * Trino checks the length on writes and shows it in DESCRIBE and SHOW CREATE TABLE.
   */
  static final String VARCHAR_LENGTH_PREFIX = "trino.varchar_length.";

  private final MosaicStorage storage;

  @Inject
  MosaicMetadata(MosaicStorage storage) {
    this.storage = storage;
  }

  // ---- queries: their own times, for the trace (docs/cost-model.md, "Predicted query time")

  @Override
  public void beginQuery(ConnectorSession session) {
    QueryClock.jvm().begin(session.getQueryId(), session.getStart().toEpochMilli());
  }

  @Override
  public void cleanupQuery(ConnectorSession session) {
    QueryClock.jvm().end(session.getQueryId(), System.currentTimeMillis());
  }

  // ---- schemas

  @Override
  public List<String> listSchemaNames(ConnectorSession session) {
    return storage.schemas();
  }

  @Override
  public boolean schemaExists(ConnectorSession session, String schemaName) {
    return storage.schemaExists(schemaName);
  }

  @Override
  public void createSchema(
      ConnectorSession session,
      String schemaName,
      Map<String, Object> properties,
      TrinoPrincipal owner) {
    if (storage.schemaExists(schemaName)) {
      throw new TrinoException(SCHEMA_ALREADY_EXISTS, "schema " + schemaName + " already exists");
    }
    try {
      storage.createSchema(schemaName);
    } catch (MosaicException e) {
      if (e.kind() == MosaicException.Kind.CONFLICT) {
        throw new TrinoException(SCHEMA_ALREADY_EXISTS, e.getMessage(), e); // created meanwhile
      }
      throw e;
    }
  }

  @Override
  public void dropSchema(ConnectorSession session, String schemaName, boolean cascade) {
    storage.dropSchema(schemaName, cascade);
  }

  // ---- tables

  /**
   * No partitioning and no sort order (no local properties): a split may hand out its row groups in
   * whatever order the node's shared scan buffer completes them (docs/cooperative-scans.md).
   */
  @Override
  public ConnectorTableProperties getTableProperties(
      ConnectorSession session, ConnectorTableHandle table) {
    return new ConnectorTableProperties();
  }

  @Override
  public ConnectorTableHandle getTableHandle(
      ConnectorSession session,
      SchemaTableName tableName,
      Optional<ConnectorTableVersion> startVersion,
      Optional<ConnectorTableVersion> endVersion) {
    if (MosaicSystemTables.isSystemTableName(tableName.getTableName())
        || !storage.schemaExists(tableName.getSchemaName())
        || !storage.tableExists(tableName)) {
      return null;
    }
    if (startVersion.isPresent()) {
      throw new TrinoException(
          NOT_SUPPORTED,
          "Mosaic reads one version of a table, not the changes from a start version");
    }
    MosaicTable table = storage.open(tableName);
    if (endVersion.isPresent()) {
      // Time travel: core finds the version and says what is readable when it is gone.
      Manifest m = call(() -> TimeTravel.resolve(session, table, endVersion.get()));
      return new MosaicTableHandle(
          tableName.getSchemaName(),
          tableName.getTableName(),
          m.version(),
          TupleDomain.all(),
          null,
          true);
    }
    long version = call(() -> table.latest().version());
    return new MosaicTableHandle(
        tableName.getSchemaName(),
        tableName.getTableName(),
        version,
        TupleDomain.all(),
        null,
        false);
  }

  @Override
  public Optional<SystemTable> getSystemTable(ConnectorSession session, SchemaTableName name) {
    return MosaicSystemTables.forName(storage, name);
  }

  Manifest manifest(MosaicTableHandle handle) {
    MosaicTable table = storage.open(handle.name());
    return call(() -> table.version(handle.version()));
  }

  /** The Trino columns of a version: core's types, with the varchar lengths Trino declared. */
  static List<MosaicColumnHandle> columns(Manifest manifest) {
    List<MosaicColumnHandle> columns = new ArrayList<>();
    for (ColumnSpec c : manifest.schema().columns()) {
      Type type = TrinoTypes.toTrino(c.type());
      String length = manifest.properties().get(VARCHAR_LENGTH_PREFIX + c.name());
      if (length != null && type instanceof VarcharType) {
        type = VarcharType.createVarcharType(Integer.parseInt(length));
      }
      columns.add(new MosaicColumnHandle(c.name(), type, c.nullable()));
    }
    return columns;
  }

  @Override
  public ConnectorTableMetadata getTableMetadata(
      ConnectorSession session, ConnectorTableHandle tableHandle) {
    MosaicTableHandle handle = (MosaicTableHandle) tableHandle;
    Manifest m = manifest(handle);
    Map<String, Object> properties = new LinkedHashMap<>();
    String rows = m.properties().get(TableProperties.ROW_GROUP_ROWS);
    if (rows != null) {
      properties.put(MosaicTableProperties.ROW_GROUP_ROWS, Long.parseLong(rows));
    }
    String device = m.properties().get(TableProperties.DEFAULT_DEVICE);
    if (device != null) {
      properties.put(MosaicTableProperties.DEFAULT_DEVICE, device);
    }
    String sortedBy = m.properties().get(TableProperties.SORTED_BY);
    if (sortedBy != null) {
      properties.put(MosaicTableProperties.SORTED_BY, sortedBy);
    }
    return new ConnectorTableMetadata(
        handle.name(), columns(m).stream().map(MosaicColumnHandle::metadata).toList(), properties);
  }

  @Override
  public List<SchemaTableName> listTables(ConnectorSession session, Optional<String> schemaName) {
    List<String> schemas = schemaName.map(List::of).orElseGet(storage::schemas);
    List<SchemaTableName> names = new ArrayList<>();
    for (String schema : schemas) {
      if (storage.schemaExists(schema)) {
        storage.tables(schema).forEach(t -> names.add(new SchemaTableName(schema, t)));
      }
    }
    return names;
  }

  /** information_schema.columns and SHOW COLUMNS over a schema or the whole catalog. */
  @Override
  public Iterator<RelationColumnsMetadata> streamRelationColumns(
      ConnectorSession session,
      Optional<String> schemaName,
      UnaryOperator<Set<SchemaTableName>> relationFilter) {
    Set<SchemaTableName> names =
        relationFilter.apply(new LinkedHashSet<>(listTables(session, schemaName)));
    List<RelationColumnsMetadata> relations = new ArrayList<>();
    for (SchemaTableName name : names) {
      Manifest m;
      try {
        m = call(storage.open(name)::latest);
      } catch (TableNotFoundException e) {
        continue; // dropped since it was listed
      }
      relations.add(
          RelationColumnsMetadata.forTable(
              name, columns(m).stream().map(MosaicColumnHandle::metadata).toList()));
    }
    return relations.iterator();
  }

  @Override
  public Map<String, ColumnHandle> getColumnHandles(
      ConnectorSession session, ConnectorTableHandle tableHandle) {
    Map<String, ColumnHandle> handles = new LinkedHashMap<>();
    for (MosaicColumnHandle c : columns(manifest((MosaicTableHandle) tableHandle))) {
      handles.put(c.name(), c);
    }
    return handles;
  }

  @Override
  public ColumnMetadata getColumnMetadata(
      ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle columnHandle) {
    return ((MosaicColumnHandle) columnHandle).metadata();
  }

  @Override
  public void createTable(
      ConnectorSession session, ConnectorTableMetadata tableMetadata, SaveMode saveMode) {
    if (saveMode == SaveMode.REPLACE) {
      throw new TrinoException(NOT_SUPPORTED, "This connector does not support replacing tables");
    }
    SchemaTableName name = tableMetadata.getTable();
    if (storage.tableExists(name)) {
      if (saveMode == SaveMode.IGNORE) {
        return;
      }
      throw new TrinoException(TABLE_ALREADY_EXISTS, "table " + name + " already exists");
    }
    create(tableMetadata);
  }

  private MosaicTable create(ConnectorTableMetadata tableMetadata) {
    SchemaTableName name = tableMetadata.getTable();
    if (!storage.schemaExists(name.getSchemaName())) {
      throw new SchemaNotFoundException(name.getSchemaName());
    }
    if (storage.tableExists(name)) {
      throw new TrinoException(TABLE_ALREADY_EXISTS, "table " + name + " already exists");
    }
    if (tableMetadata.getComment().isPresent()) {
      throw new TrinoException(
          NOT_SUPPORTED, "This connector does not support creating tables with table comment");
    }
    List<ColumnSpec> columns = new ArrayList<>();
    Map<String, String> properties =
        new LinkedHashMap<>(MosaicTableProperties.toMosaic(tableMetadata.getProperties()));
    for (ColumnMetadata c : tableMetadata.getColumns()) {
      if (c.getComment() != null) {
        throw new TrinoException(
            NOT_SUPPORTED, "This connector does not support creating tables with column comment");
      }
      if (c.isHidden()) {
        continue;
      }
      columns.add(
          new ColumnSpec(
              c.getName(), TrinoTypes.fromTrino(c.getName(), c.getType()), c.isNullable()));
      if (c.getType() instanceof VarcharType v && v.getLength().isPresent()) {
        properties.put(VARCHAR_LENGTH_PREFIX + c.getName(), Integer.toString(v.getBoundedLength()));
      }
    }
    return storage.createTable(name, new TableSchema(columns), properties);
  }

  @Override
  public void dropTable(ConnectorSession session, ConnectorTableHandle tableHandle) {
    storage.dropTable(((MosaicTableHandle) tableHandle).name());
  }

  /** ALTER TABLE ... RENAME TO, within a schema or across: the table root moves (core). */
  @Override
  public void renameTable(
      ConnectorSession session, ConnectorTableHandle tableHandle, SchemaTableName newTableName) {
    storage.renameTable(((MosaicTableHandle) tableHandle).name(), newTableName);
  }

  // ---- ALTER TABLE ... COLUMN (docs/format.md, "Column ids"; docs/operations.md)

  @Override
  public void addColumn(
      ConnectorSession session,
      ConnectorTableHandle tableHandle,
      ColumnMetadata column,
      ColumnPosition position) {
    switch (position) {
      case ColumnPosition.First first ->
          throw new TrinoException(
              NOT_SUPPORTED, "This connector does not support adding columns with FIRST clause");
      case ColumnPosition.After after ->
          throw new TrinoException(
              NOT_SUPPORTED, "This connector does not support adding columns with AFTER clause");
      case ColumnPosition.Last last -> {}
    }
    if (column.getComment() != null) {
      throw new TrinoException(
          NOT_SUPPORTED, "This connector does not support adding columns with comments");
    }
    Map<String, String> properties = new LinkedHashMap<>();
    if (column.getType() instanceof VarcharType v && v.getLength().isPresent()) {
      properties.put(
          VARCHAR_LENGTH_PREFIX + column.getName(), Integer.toString(v.getBoundedLength()));
    }
    ColumnSpec spec =
        new ColumnSpec(
            column.getName(),
            TrinoTypes.fromTrino(column.getName(), column.getType()),
            column.isNullable());
    alter(tableHandle, new SchemaChange.AddColumn(spec, properties));
  }

  @Override
  public void dropColumn(
      ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle column) {
    alter(tableHandle, new SchemaChange.DropColumn(((MosaicColumnHandle) column).name()));
  }

  @Override
  public void renameColumn(
      ConnectorSession session,
      ConnectorTableHandle tableHandle,
      ColumnHandle source,
      String target) {
    alter(tableHandle, new SchemaChange.RenameColumn(((MosaicColumnHandle) source).name(), target));
  }

  /**
   * ALTER TABLE ... ALTER COLUMN ... SET DATA TYPE: a widening core allows ({@code
   * ColumnType.widensFrom}), or a longer (or unbounded) varchar, which changes only Trino's note of
   * its length; anything else is refused by core, naming what it allows.
   */
  @Override
  public void setColumnType(
      ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle column, Type type) {
    MosaicColumnHandle c = (MosaicColumnHandle) column;
    Map<String, String> properties = new LinkedHashMap<>();
    if (c.type() instanceof VarcharType from && type instanceof VarcharType to) {
      if (!to.isUnbounded()
          && (from.isUnbounded() || to.getBoundedLength() < from.getBoundedLength())) {
        throw new TrinoException(
            NOT_SUPPORTED,
            "cannot change column '"
                + c.name()
                + "' from "
                + from
                + " to "
                + to
                + ": a shorter varchar could cut values already stored; use a longer or"
                + " unbounded varchar");
      }
      // Removed (the empty value) for an unbounded varchar, which is Mosaic's string itself.
      properties.put(
          VARCHAR_LENGTH_PREFIX + c.name(),
          to.isUnbounded() ? "" : Integer.toString(to.getBoundedLength()));
    }
    alter(
        tableHandle,
        new SchemaChange.SetColumnType(c.name(), TrinoTypes.fromTrino(c.name(), type), properties));
  }

  private void alter(ConnectorTableHandle tableHandle, SchemaChange change) {
    MosaicTable table = storage.open(((MosaicTableHandle) tableHandle).name());
    call(() -> table.alter(change));
  }

  // ---- writes

  @Override
  public ConnectorOutputTableHandle beginCreateTable(
      ConnectorSession session,
      ConnectorTableMetadata tableMetadata,
      Optional<ConnectorTableLayout> layout,
      RetryMode retryMode,
      boolean replace) {
    if (replace) {
      throw new TrinoException(NOT_SUPPORTED, "This connector does not support replacing tables");
    }
    if (retryMode != RetryMode.NO_RETRIES) {
      throw new TrinoException(NOT_SUPPORTED, "Mosaic does not support query retries");
    }
    MosaicTable table = create(tableMetadata);
    return new MosaicWriteHandle(
        tableMetadata.getTable().getSchemaName(),
        tableMetadata.getTable().getTableName(),
        columns(call(table::latest)));
  }

  @Override
  public Optional<ConnectorOutputMetadata> finishCreateTable(
      ConnectorSession session,
      ConnectorOutputTableHandle tableHandle,
      Collection<Slice> fragments,
      Collection<ComputedStatistics> computedStatistics) {
    commit((MosaicWriteHandle) tableHandle, fragments);
    return Optional.empty();
  }

  @Override
  public ConnectorInsertTableHandle beginInsert(
      ConnectorSession session,
      ConnectorTableHandle tableHandle,
      List<ColumnHandle> columns,
      RetryMode retryMode) {
    if (retryMode != RetryMode.NO_RETRIES) {
      throw new TrinoException(NOT_SUPPORTED, "Mosaic does not support query retries");
    }
    MosaicTableHandle handle = (MosaicTableHandle) tableHandle;
    requireLatest(handle, "insert into");
    return new MosaicWriteHandle(
        handle.schema(), handle.table(), columns(call(storage.open(handle.name())::latest)));
  }

  private static void requireLatest(MosaicTableHandle handle, String verb) {
    if (handle.timeTravel()) {
      throw new TrinoException(
          NOT_SUPPORTED,
          "cannot "
              + verb
              + " "
              + handle.name()
              + " as of version "
              + handle.version()
              + ": a table read FOR VERSION or FOR TIMESTAMP AS OF is read-only; "
              + verb
              + " "
              + handle.name()
              + " without the AS OF clause");
    }
  }

  @Override
  public Optional<ConnectorOutputMetadata> finishInsert(
      ConnectorSession session,
      ConnectorInsertTableHandle insertHandle,
      List<ConnectorTableHandle> sourceTableHandles,
      Collection<Slice> fragments,
      Collection<ComputedStatistics> computedStatistics) {
    commit((MosaicWriteHandle) insertHandle, fragments);
    return Optional.empty();
  }

  // ---- DELETE, UPDATE and MERGE (docs/trino.md, "Row-level changes")

  /**
   * An UPDATE is a delete of the old row and an insert of the new one, as deletion vectors need.
   */
  @Override
  public RowChangeParadigm getRowChangeParadigm(
      ConnectorSession session, ConnectorTableHandle tableHandle) {
    return RowChangeParadigm.DELETE_ROW_AND_INSERT_ROW;
  }

  @Override
  public ColumnHandle getMergeRowIdColumnHandle(
      ConnectorSession session, ConnectorTableHandle tableHandle) {
    return MosaicColumnHandle.ROW_ID;
  }

  @Override
  public ConnectorMergeTableHandle beginMerge(
      ConnectorSession session,
      ConnectorTableHandle tableHandle,
      Map<Integer, Collection<ColumnHandle>> updateCaseColumns,
      RetryMode retryMode) {
    if (retryMode != RetryMode.NO_RETRIES) {
      throw new TrinoException(NOT_SUPPORTED, "Mosaic does not support query retries");
    }
    MosaicTableHandle handle = (MosaicTableHandle) tableHandle;
    requireLatest(handle, "change rows of");
    MosaicTable table = storage.open(handle.name());
    // Inserted rows have the columns of the version the statement reads, as its rows do.
    return new MosaicMergeTableHandle(
        handle,
        new MosaicWriteHandle(
            handle.schema(), handle.table(), columns(call(() -> table.version(handle.version())))));
  }

  /**
   * Commits every task's deleted rows and inserted segments as one version on the version the
   * statement read; a concurrent change to the same rows makes it a conflict (core's {@code
   * MosaicTable#changeRows}).
   */
  @Override
  public void finishMerge(
      ConnectorSession session,
      ConnectorMergeTableHandle mergeTableHandle,
      List<ConnectorTableHandle> sourceTableHandles,
      Collection<Slice> fragments,
      Collection<ComputedStatistics> computedStatistics) {
    MosaicMergeTableHandle handle = (MosaicMergeTableHandle) mergeTableHandle;
    DeletedRows.Collector deleted = new DeletedRows.Collector();
    List<WriteResult> written = new ArrayList<>();
    for (Slice f : fragments) {
      MosaicMergeSink.Fragment fragment = MosaicMergeSink.decode(f);
      deleted.addAll(fragment.deleted());
      if (fragment.written() != null) {
        written.add(fragment.written());
      }
    }
    Map<Integer, DeletedRows> vectors = deleted.deletions();
    if (vectors.isEmpty() && written.isEmpty()) {
      return;
    }
    MosaicTable table = storage.open(handle.table().name());
    String operation = written.isEmpty() ? "delete" : vectors.isEmpty() ? "insert" : "merge";
    call(() -> table.changeRows(operation, handle.table().version(), vectors, written));
  }

  /**
   * TRUNCATE TABLE (which names a table, never a version of it): one new version without rows;
   * older versions stay readable until gc.
   */
  @Override
  public void truncateTable(ConnectorSession session, ConnectorTableHandle tableHandle) {
    MosaicTable table = storage.open(((MosaicTableHandle) tableHandle).name());
    call(table::truncate);
  }

  // ---- ALTER TABLE ... EXECUTE

  @Override
  public Optional<ConnectorTableExecuteHandle> getTableHandleForExecute(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      ConnectorTableHandle tableHandle,
      String procedureName,
      Map<String, Object> executeProperties,
      RetryMode retryMode) {
    if (!procedureName.equalsIgnoreCase(MosaicTableExecuteHandle.OPTIMIZE)) {
      throw new TrinoException(
          NOT_SUPPORTED,
          "Mosaic tables have no procedure " + procedureName + "; EXECUTE runs optimize");
    }
    MosaicTableHandle handle = (MosaicTableHandle) tableHandle;
    return Optional.of(
        new MosaicTableExecuteHandle(
            handle.schema(), handle.table(), MosaicTableExecuteHandle.OPTIMIZE));
  }

  /**
   * Compaction on the coordinator (docs/operations.md, "Compaction"), as the CLI and Spark run it.
   */
  @Override
  public void executeTableExecute(
      ConnectorSession session, ConnectorTableExecuteHandle tableExecuteHandle) {
    MosaicPlanner.optimize(storage, ((MosaicTableExecuteHandle) tableExecuteHandle).name());
  }

  /** All page sinks' results in one new version: readers see the whole statement or nothing. */
  private void commit(MosaicWriteHandle handle, Collection<Slice> fragments) {
    List<WriteResult> results = fragments.stream().map(CoreObjects::decode).toList();
    MosaicTable table = storage.open(handle.name());
    call(() -> table.append(results));
  }

  // ---- pushdown and statistics

  @Override
  public Optional<ConstraintApplicationResult<ConnectorTableHandle>> applyFilter(
      ConnectorSession session, ConnectorTableHandle tableHandle, Constraint constraint) {
    MosaicTableHandle handle = (MosaicTableHandle) tableHandle;
    TupleDomain<MosaicColumnHandle> pushed =
        constraint.getSummary().transformKeys(MosaicColumnHandle.class::cast);
    TupleDomain<MosaicColumnHandle> combined = handle.constraint().intersect(pushed);
    if (combined.equals(handle.constraint())) {
      return Optional.empty();
    }
    // Row-group skipping is not a filter: Trino keeps applying the whole constraint.
    return Optional.of(
        new ConstraintApplicationResult<>(
            handle.withConstraint(combined),
            constraint.getSummary(),
            constraint.getExpression(),
            false));
  }

  /** Learns which columns the scan reads (Trino prunes them through this call), for the trace. */
  @Override
  public Optional<ProjectionApplicationResult<ConnectorTableHandle>> applyProjection(
      ConnectorSession session,
      ConnectorTableHandle tableHandle,
      List<ConnectorExpression> projections,
      Map<String, ColumnHandle> assignments) {
    MosaicTableHandle handle = (MosaicTableHandle) tableHandle;
    // The row id of a DELETE, UPDATE or MERGE is made by the page source, not read.
    List<String> columns =
        assignments.values().stream()
            .filter(c -> !c.equals(MosaicColumnHandle.ROW_ID))
            .map(c -> ((MosaicColumnHandle) c).name())
            .distinct()
            .sorted()
            .toList();
    if (columns.equals(handle.projection())) {
      return Optional.empty();
    }
    List<Assignment> outputs =
        assignments.entrySet().stream()
            .map(
                e ->
                    new Assignment(
                        e.getKey(), e.getValue(), ((MosaicColumnHandle) e.getValue()).type()))
            .toList();
    return Optional.of(
        new ProjectionApplicationResult<>(
            handle.withProjection(columns), projections, outputs, false));
  }

  /**
   * ANALYZE: Trino only counts rows (nothing is read for that); the work is the maintenance
   * library's {@code analyze} (the CLI's {@code mosaic analyze}, Spark's {@code CALL analyze}):
   * core's {@code TableAnalyzer} reads the segments whose row groups lack a distinct-value sketch
   * or data size (tables written before writers collected them, chunks import copied) and commits
   * them in a new version. Writes need nothing from Trino: core's writers collect the same
   * statistics.
   */
  @Override
  public ConnectorAnalyzeMetadata getStatisticsCollectionMetadata(
      ConnectorSession session,
      ConnectorTableHandle tableHandle,
      Map<String, Object> analyzeProperties) {
    return new ConnectorAnalyzeMetadata(
        tableHandle,
        new TableStatisticsMetadata(Set.of(), Set.of(TableStatisticType.ROW_COUNT), List.of()));
  }

  @Override
  public ConnectorTableHandle beginStatisticsCollection(
      ConnectorSession session, ConnectorTableHandle tableHandle) {
    return tableHandle;
  }

  @Override
  public void finishStatisticsCollection(
      ConnectorSession session,
      ConnectorTableHandle tableHandle,
      Collection<ComputedStatistics> computedStatistics) {
    SchemaTableName name = ((MosaicTableHandle) tableHandle).name();
    call(
        () ->
            new MaintenanceExecutor(storage.pool(), ignored -> storage.open(name))
                .analyze(name.toString()));
  }

  @Override
  public TableStatistics getTableStatistics(
      ConnectorSession session, ConnectorTableHandle tableHandle) {
    MosaicTableHandle handle = (MosaicTableHandle) tableHandle;
    Manifest m = manifest(handle);
    return MosaicTableStatistics.of(m, columns(m));
  }
}
