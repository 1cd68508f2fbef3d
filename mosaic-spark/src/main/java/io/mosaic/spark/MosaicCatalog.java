package io.mosaic.spark;

import io.mosaic.MosaicException;
import io.mosaic.design.DesignExecutor;
import io.mosaic.device.DevicePool;
import io.mosaic.operations.MaintenanceExecutor;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.SchemaChange;
import io.mosaic.table.TableNotFoundException;
import io.mosaic.warehouse.Warehouse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.ProcedureCatalog;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * A Spark SQL catalog of Mosaic tables: {@code
 * spark.sql.catalog.mosaic=io.mosaic.spark.MosaicCatalog} with {@code .devices} (the pool's
 * devices.toml) and {@code .warehouse} (a directory, normally on the metadata device). Namespaces
 * and tables are core's {@link Warehouse}'s (one level of namespaces); this class translates
 * identifiers and errors only. Maintenance runs from SQL as procedures in namespace {@code system}:
 * {@code placement}, {@code place} and {@code move_columns}.
 */
public final class MosaicCatalog implements TableCatalog, SupportsNamespaces, ProcedureCatalog {
  /** The namespace of the maintenance procedures: {@code CALL mosaic.system.place(...)}. */
  static final String SYSTEM = "system";

  private String name;
  private String devices;
  private String warehouse; // a local path, or a URI of another storage
  private Map<String, String> hadoop;
  private Warehouse store;

  @Override
  public void initialize(String name, CaseInsensitiveStringMap options) {
    this.name = name;
    SparkQueryTimes.register();
    MosaicSparkConf.CatalogConf conf = MosaicSparkConf.catalog(name, options);
    this.devices = conf.devices();
    this.hadoop = conf.hadoop();
    if (MosaicTable.isRemote(conf.warehouse())) {
      this.warehouse = conf.warehouse(); // reached on first use, with the pool's Hadoop settings
    } else {
      Path dir = Path.of(conf.warehouse()).toAbsolutePath().normalize();
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create warehouse " + dir, e);
      }
      this.warehouse = dir.toString();
    }
    if (RESTARTED.add(name + "@" + warehouse)) {
      Thread t = new Thread(this::resumeLeftRunning, "mosaic-maintain-restart-" + name);
      t.setDaemon(true);
      t.start();
    }
  }

  // Catalogs (name and warehouse) whose transformations this JVM (the driver) has looked at since
  // it started: a session's catalogs are created anew for every new session.
  private static final Set<String> RESTARTED = ConcurrentHashMap.newKeySet();

  /**
   * The driver's start as the maintenance service's restart (docs/physical-design.md): the first
   * catalog of a name and warehouse in this JVM resumes, in the background, every transformation a
   * driver that stopped left running (the library decides; this lists the tables).
   */
  private void resumeLeftRunning() {
    try {
      List<String> tables = new ArrayList<>();
      for (String ns : warehouse().namespaces()) {
        warehouse().tables(ns).forEach(t -> tables.add(ns + "." + t));
      }
      new MaintenanceExecutor(pool(), this::openTable)
          .resumeLeftRunning(tables, new DesignExecutor.Listener() {})
          .forEach(line -> LOG.info("maintain " + line));
    } catch (RuntimeException e) {
      LOG.warn("maintain: cannot look for transformations left running in " + warehouse, e);
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(MosaicCatalog.class);

  @Override
  public String name() {
    return name;
  }

  /**
   * The warehouse, opened on first use: its pool is loaded then (once per JVM, {@link
   * MosaicOptions#pool}), so a catalog that is only configured costs nothing.
   */
  synchronized Warehouse warehouse() {
    if (store == null) {
      DevicePool pool;
      try {
        pool = pool();
      } catch (MosaicException e) {
        // Named with the setting to fix: a devices.toml, a device on HDFS that does not answer.
        throw SparkErrors.toSpark(
            e, "catalog " + name + " (spark.sql.catalog." + name + ".devices)", null);
      }
      try {
        store = Warehouse.open(warehouse, pool);
      } catch (MosaicException e) {
        throw SparkErrors.toSpark(
            e, "catalog " + name + " (spark.sql.catalog." + name + ".warehouse)", null);
      }
    }
    return store;
  }

  /** A Spark namespace as the warehouse's: Mosaic namespaces have one level. */
  private static String namespace(String[] namespace) throws NoSuchNamespaceException {
    if (namespace.length != 1) {
      throw new NoSuchNamespaceException(namespace);
    }
    return namespace[0];
  }

  private static boolean oneLevel(Identifier ident) {
    return ident.namespace().length == 1;
  }

  private MosaicOptions options(String location) {
    return new MosaicOptions(location, devices, hadoop);
  }

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    String ns = namespace(namespace);
    if (!warehouse().namespaceExists(ns)) {
      throw new NoSuchNamespaceException(namespace);
    }
    return warehouse().tables(ns).stream()
        .map(t -> Identifier.of(namespace, t))
        .toArray(Identifier[]::new);
  }

  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    if (!oneLevel(ident) || !warehouse().exists(ident.namespace()[0], ident.name())) {
      throw new NoSuchTableException(ident);
    }
    return new MosaicSparkTable(
        options(warehouse().location(ident.namespace()[0], ident.name())), null, true);
  }

  /** {@code SELECT ... FROM t VERSION AS OF 5}: core's time travel (docs/spark.md). */
  @Override
  public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
    long number;
    try {
      number = Long.parseLong(version.strip());
    } catch (NumberFormatException e) {
      throw SparkErrors.toSpark(
          MosaicException.invalid(
              "VERSION AS OF '" + version + "': a Mosaic table's versions are numbers (1, 2, ...)"),
          "reading " + ident,
          ident);
    }
    return asOf(ident, number, null);
  }

  /** {@code SELECT ... FROM t TIMESTAMP AS OF '...'} (microseconds since the epoch). */
  @Override
  public Table loadTable(Identifier ident, long timestamp) throws NoSuchTableException {
    return asOf(ident, null, timestamp);
  }

  private Table asOf(Identifier ident, Long version, Long micros) throws NoSuchTableException {
    if (!oneLevel(ident) || !warehouse().exists(ident.namespace()[0], ident.name())) {
      throw new NoSuchTableException(ident);
    }
    try {
      return MosaicSparkTable.asOf(
          options(warehouse().location(ident.namespace()[0], ident.name())), version, micros);
    } catch (MosaicException e) {
      throw SparkErrors.toSpark(e, "reading " + name + "." + ident, ident);
    }
  }

  @Override
  public Table createTable(
      Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    if (partitions.length > 0) {
      throw new IllegalArgumentException(
          "Mosaic tables are not partitioned (placement is per column): drop PARTITIONED BY");
    }
    String ns = namespace(ident.namespace());
    String root = warehouse().location(ns, ident.name());
    if (!warehouse().namespaceExists(ns)) {
      throw new NoSuchNamespaceException(ident.namespace());
    }
    if (warehouse().exists(ns, ident.name())) {
      throw new TableAlreadyExistsException(ident);
    }
    MosaicOptions o = options(root);
    try {
      warehouse()
          .create(
              ns,
              ident.name(),
              SparkTypes.fromSpark(schema),
              MosaicSparkConf.newTable(MosaicSparkConf.createTableOptions(properties))
                  .creationProperties(devices));
    } catch (MosaicException e) {
      if (e.kind() == MosaicException.Kind.CONFLICT) {
        throw new TableAlreadyExistsException(ident); // created meanwhile
      }
      throw e;
    }
    return new MosaicSparkTable(o, schema, true);
  }

  // ---- procedures

  @Override
  public UnboundProcedure loadProcedure(Identifier ident) {
    if (ident.namespace().length == 1 && ident.namespace()[0].equals(SYSTEM)) {
      switch (ident.name()) {
        case PlacementProcedure.NAME:
          return new PlacementProcedure(this);
        case PlaceProcedure.NAME:
          return new PlaceProcedure(this);
        case MoveColumnsProcedure.NAME:
          return new MoveColumnsProcedure(this);
        case AnalyzeProcedure.NAME:
          return new AnalyzeProcedure(this);
        case MaintainProcedure.NAME:
          return new MaintainProcedure(this);
        case MovesProcedure.NAME:
          return new MovesProcedure(this);
        case OptimizeProcedure.NAME:
          return new OptimizeProcedure(this);
        case VersionsProcedure.NAME:
          return new VersionsProcedure(this, false);
        case VersionsProcedure.HISTORY:
          return new VersionsProcedure(this, true);
        default:
          break;
      }
    }
    throw new IllegalArgumentException(
        "no procedure "
            + name
            + "."
            + ident
            + "; Mosaic has "
            + name
            + ".system.placement, "
            + name
            + ".system.place, "
            + name
            + ".system.move_columns, "
            + name
            + ".system.analyze, "
            + name
            + ".system.maintain, "
            + name
            + ".system.moves, "
            + name
            + ".system.optimize, "
            + name
            + ".system.versions and "
            + name
            + ".system.history (docs/spark.md)");
  }

  @Override
  public Identifier[] listProcedures(String[] namespace) {
    if (namespace.length == 1 && namespace[0].equals(SYSTEM)) {
      return new Identifier[] {
        Identifier.of(namespace, PlacementProcedure.NAME),
        Identifier.of(namespace, PlaceProcedure.NAME),
        Identifier.of(namespace, MoveColumnsProcedure.NAME),
        Identifier.of(namespace, AnalyzeProcedure.NAME),
        Identifier.of(namespace, MaintainProcedure.NAME),
        Identifier.of(namespace, MovesProcedure.NAME),
        Identifier.of(namespace, OptimizeProcedure.NAME),
        Identifier.of(namespace, VersionsProcedure.NAME),
        Identifier.of(namespace, VersionsProcedure.HISTORY)
      };
    }
    return new Identifier[0];
  }

  /** The pool of this catalog's tables. */
  DevicePool pool() {
    return new MosaicOptions(warehouse, devices, hadoop).pool();
  }

  /**
   * Opens table {@code namespace.table} (a procedure's {@code table} argument), or explains what
   * exists.
   */
  MosaicTable openTable(String qualifiedName) {
    String[] parts = qualifiedName == null ? new String[0] : qualifiedName.strip().split("\\.");
    if (parts.length < 2) {
      throw MosaicException.invalid(
          "table => '"
              + qualifiedName
              + "' must name a table as namespace.table, e.g. table => 'tpch.lineitem'");
    }
    String[] namespace = java.util.Arrays.copyOf(parts, parts.length - 1);
    String table = parts[parts.length - 1];
    if (namespace.length == 1 && warehouse().exists(namespace[0], table)) {
      return warehouse().open(namespace[0], table);
    }
    throw new TableNotFoundException(
        "no table "
            + qualifiedName
            + " in catalog "
            + name
            + " (warehouse "
            + warehouse
            + "); SHOW TABLES IN "
            + name
            + "."
            + String.join(".", namespace)
            + " lists its tables");
  }

  /**
   * ALTER TABLE ADD COLUMN(S), DROP COLUMN(S) and RENAME COLUMN, committed by core as one version
   * ({@link MosaicTable#alter}; docs/format.md, "Column ids"): rows written before an added column
   * read NULL in it. Other changes are refused, naming what is supported.
   */
  @Override
  public Table alterTable(Identifier ident, TableChange... changes) throws NoSuchTableException {
    if (!oneLevel(ident) || !warehouse().exists(ident.namespace()[0], ident.name())) {
      throw new NoSuchTableException(ident);
    }
    MosaicTable table = warehouse().open(ident.namespace()[0], ident.name());
    List<SchemaChange> schemaChanges = new ArrayList<>();
    for (TableChange change : changes) {
      schemaChanges.add(schemaChange(ident, change, table));
    }
    try {
      table.alter(schemaChanges);
    } catch (MosaicException e) {
      throw SparkErrors.toSpark(e, "ALTER TABLE " + name + "." + ident, ident);
    } catch (UncheckedIOException e) {
      throw SparkErrors.io("ALTER TABLE " + name + "." + ident, e);
    }
    return loadTable(ident);
  }

  private static final String ALTER_SUPPORTED =
      "Mosaic tables support ALTER TABLE ADD COLUMN(S) (nullable, added last, no default),"
          + " DROP COLUMN(S), RENAME COLUMN and ALTER COLUMN ... TYPE to a wider type ("
          + io.mosaic.format.ColumnType.WIDENINGS
          + "), besides RENAME TO";

  private SchemaChange schemaChange(Identifier ident, TableChange change, MosaicTable table) {
    if (change instanceof TableChange.AddColumn add && add.fieldNames().length == 1) {
      String column = add.fieldNames()[0];
      String refused = null;
      if (add.comment() != null) {
        refused = "a column comment";
      } else if (add.position() != null) {
        refused = "a column position (" + add.position() + ")";
      } else if (add.defaultValue() != null) {
        refused = "a default value";
      }
      if (refused != null) {
        throw MosaicException.unsupported(
            "cannot add column '"
                + column
                + "' to "
                + name
                + "."
                + ident
                + " with "
                + refused
                + ": "
                + ALTER_SUPPORTED);
      }
      return new SchemaChange.AddColumn(
          new io.mosaic.format.ColumnSpec(
              column, SparkTypes.fromSpark(column, add.dataType()), add.isNullable()));
    }
    if (change instanceof TableChange.DeleteColumn drop && drop.fieldNames().length == 1) {
      return new SchemaChange.DropColumn(drop.fieldNames()[0]);
    }
    if (change instanceof TableChange.RenameColumn rename && rename.fieldNames().length == 1) {
      return new SchemaChange.RenameColumn(rename.fieldNames()[0], rename.newName());
    }
    if (change instanceof TableChange.UpdateColumnType type && type.fieldNames().length == 1) {
      String column = type.fieldNames()[0];
      return new SchemaChange.SetColumnType(
          column, SparkTypes.fromSpark(column, type.newDataType()));
    }
    throw MosaicException.unsupported(
        "cannot alter "
            + name
            + "."
            + ident
            + ": "
            + change.getClass().getSimpleName()
            + (change instanceof TableChange.ColumnChange c
                ? " of " + String.join(".", c.fieldNames())
                : "")
            + " is not supported; "
            + ALTER_SUPPORTED);
  }

  /** Drops the table through core ({@link Warehouse#drop}): segments, device space, root. */
  @Override
  public boolean dropTable(Identifier ident) {
    if (!oneLevel(ident) || !warehouse().exists(ident.namespace()[0], ident.name())) {
      return false;
    }
    try {
      warehouse().drop(ident.namespace()[0], ident.name());
      return true;
    } catch (io.mosaic.table.TableNotFoundException e) {
      return false; // dropped meanwhile
    }
  }

  /**
   * ALTER TABLE ... RENAME TO: the table root moves, its segments stay ({@link Warehouse#rename}).
   * A target without a namespace stays in the source's (Spark passes the name as given).
   */
  @Override
  public void renameTable(Identifier from, Identifier to)
      throws NoSuchTableException, TableAlreadyExistsException {
    if (!oneLevel(from) || !warehouse().exists(from.namespace()[0], from.name())) {
      throw new NoSuchTableException(from);
    }
    String[] target = to.namespace().length == 0 ? from.namespace() : to.namespace();
    if (target.length != 1) {
      throw MosaicException.invalid(
          "cannot rename "
              + from
              + " to "
              + to
              + ": Mosaic namespaces have one level, e.g. "
              + name
              + ".tpch.orders");
    }
    if (warehouse().exists(target[0], to.name())) {
      throw new TableAlreadyExistsException(Identifier.of(target, to.name()));
    }
    warehouse().rename(from.namespace()[0], from.name(), target[0], to.name());
  }

  @Override
  public String[][] listNamespaces() {
    return warehouse().namespaces().stream().map(n -> new String[] {n}).toArray(String[][]::new);
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    loadNamespaceMetadata(namespace);
    return new String[0][];
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace)
      throws NoSuchNamespaceException {
    if (!warehouse().namespaceExists(namespace(namespace))) {
      throw new NoSuchNamespaceException(namespace);
    }
    return Map.of();
  }

  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata)
      throws NamespaceAlreadyExistsException {
    if (namespace.length != 1) {
      throw MosaicException.invalid(
          "namespace "
              + String.join(".", namespace)
              + " has "
              + namespace.length
              + " levels; Mosaic namespaces have one, e.g. "
              + name
              + ".tpch");
    }
    try {
      warehouse().createNamespace(namespace[0]);
    } catch (MosaicException e) {
      if (e.kind() == MosaicException.Kind.CONFLICT) {
        throw new NamespaceAlreadyExistsException(namespace);
      }
      throw e;
    }
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes) {
    throw new UnsupportedOperationException("ALTER NAMESPACE is not supported by Mosaic");
  }

  /** DROP NAMESPACE [CASCADE]: each table through {@link Warehouse#drop}, then the directory. */
  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade)
      throws NoSuchNamespaceException, NonEmptyNamespaceException {
    String ns = namespace(namespace);
    if (!warehouse().namespaceExists(ns)) {
      throw new NoSuchNamespaceException(namespace);
    }
    try {
      warehouse().dropNamespace(ns, cascade);
    } catch (MosaicException e) {
      if (e.kind() == MosaicException.Kind.CONFLICT) {
        throw new NonEmptyNamespaceException(namespace, e.getMessage(), Option.empty());
      }
      throw e;
    }
    return true;
  }
}
