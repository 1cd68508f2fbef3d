package io.mosaic.trino;

import com.google.inject.Inject;
import io.airlift.bootstrap.LifeCycleManager;
import io.airlift.log.Logger;
import io.mosaic.design.DesignExecutor;
import io.mosaic.operations.MaintenanceExecutor;
import io.trino.spi.NodeManager;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorCapabilities;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorPageSinkProvider;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableProcedureExecutionMode;
import io.trino.spi.connector.TableProcedureMetadata;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.session.PropertyMetadata;
import io.trino.spi.transaction.IsolationLevel;
import java.util.List;
import java.util.Set;

/** The Mosaic connector of one catalog. */
final class MosaicConnector implements Connector {
  private final LifeCycleManager lifeCycle;
  private final MosaicMetadata metadata;
  private final MosaicSplitManager splits;
  private final MosaicPageSourceProvider pageSources;
  private final MosaicPageSinkProvider pageSinks;
  private final Set<Procedure> procedures;
  private final MosaicSessionProperties sessionProperties;
  private final MosaicStorage storage;

  @Inject
  MosaicConnector(
      LifeCycleManager lifeCycle,
      MosaicMetadata metadata,
      MosaicSplitManager splits,
      MosaicPageSourceProvider pageSources,
      MosaicPageSinkProvider pageSinks,
      Set<Procedure> procedures,
      MosaicSessionProperties sessionProperties,
      MosaicStorage storage,
      NodeManager nodes) {
    this.procedures = Set.copyOf(procedures);
    this.sessionProperties = sessionProperties;
    this.storage = storage;
    this.lifeCycle = lifeCycle;
    this.metadata = metadata;
    this.splits = splits;
    this.pageSources = pageSources;
    this.pageSinks = pageSinks;
    if (nodes.getCurrentNode().isCoordinator()) {
      Thread t = new Thread(() -> resumeLeftRunning(storage), "mosaic-maintain-restart");
      t.setDaemon(true);
      t.start();
    }
  }

  /** The catalog's pool and warehouse on this node. */
  MosaicStorage storage() {
    return storage;
  }

  /**
   * The coordinator's start as the maintenance service's restart (docs/physical-design.md, "Crashes
   * and restarts"): every transformation a coordinator that stopped left running is resumed in the
   * background (the library decides; this lists the tables).
   */
  private static void resumeLeftRunning(MosaicStorage storage) {
    try {
      List<String> tables = new java.util.ArrayList<>();
      for (String schema : storage.schemas()) {
        storage.tables(schema).forEach(t -> tables.add(schema + "." + t));
      }
      new MaintenanceExecutor(storage.pool(), name -> storage.open(tableName(name)))
          .resumeLeftRunning(tables, new DesignExecutor.Listener() {})
          .forEach(line -> log.info("maintain %s", line));
    } catch (RuntimeException e) {
      log.warn(e, "maintain: cannot look for transformations left running");
    }
  }

  // The library names tables as the procedures do: schema.table.
  private static SchemaTableName tableName(String name) {
    int dot = name.indexOf('.');
    return new SchemaTableName(name.substring(0, dot), name.substring(dot + 1));
  }

  private static final Logger log = Logger.get(MosaicConnector.class);

  @Override
  public ConnectorTransactionHandle beginTransaction(
      IsolationLevel isolationLevel, boolean readOnly, boolean autoCommit) {
    return MosaicTransactionHandle.INSTANCE;
  }

  @Override
  public ConnectorMetadata getMetadata(
      ConnectorSession session, ConnectorTransactionHandle transaction) {
    return metadata;
  }

  @Override
  public ConnectorSplitManager getSplitManager() {
    return splits;
  }

  @Override
  public ConnectorPageSourceProvider getPageSourceProvider() {
    return pageSources;
  }

  @Override
  public ConnectorPageSinkProvider getPageSinkProvider() {
    return pageSinks;
  }

  @Override
  public List<PropertyMetadata<?>> getTableProperties() {
    return MosaicTableProperties.all();
  }

  @Override
  public List<PropertyMetadata<?>> getSessionProperties() {
    return sessionProperties.all();
  }

  @Override
  public Set<Procedure> getProcedures() {
    return procedures;
  }

  /** {@code ALTER TABLE t EXECUTE optimize}: compaction, run on the coordinator. */
  @Override
  public Set<TableProcedureMetadata> getTableProcedures() {
    return Set.of(
        new TableProcedureMetadata(
            MosaicTableExecuteHandle.OPTIMIZE,
            TableProcedureExecutionMode.coordinatorOnly(),
            List.of()));
  }

  /** NOT NULL columns are kept in the schema; Trino checks the values before they reach a sink. */
  @Override
  public Set<ConnectorCapabilities> getCapabilities() {
    return Set.of(ConnectorCapabilities.NOT_NULL_COLUMN_CONSTRAINT);
  }

  @Override
  public void shutdown() {
    lifeCycle.stop();
  }
}
