package io.mosaic.spark;

import io.mosaic.device.DevicePool;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
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

/**
 * A Spark SQL catalog of Mosaic tables: {@code
 * spark.sql.catalog.mosaic=io.mosaic.spark.MosaicCatalog} with {@code .devices} (the pool's
 * devices.toml) and {@code .warehouse} (a directory, normally on the metadata device). A namespace
 * is a directory of the warehouse, a table a directory in it. Maintenance runs from SQL as
 * procedures in namespace {@code system}: {@code placement}, {@code place} and {@code
 * move_columns}.
 */
public final class MosaicCatalog implements TableCatalog, SupportsNamespaces, ProcedureCatalog {
  /** The namespace of the maintenance procedures: {@code CALL mosaic.system.place(...)}. */
  static final String SYSTEM = "system";

  private String name;
  private String devices;
  private Path warehouse;

  @Override
  public void initialize(String name, CaseInsensitiveStringMap options) {
    this.name = name;
    this.devices = options.get("devices");
    String dir = options.get("warehouse");
    if (devices == null || dir == null) {
      throw new IllegalArgumentException(
          "catalog "
              + name
              + " needs spark.sql.catalog."
              + name
              + ".devices (the pool's"
              + " devices.toml) and spark.sql.catalog."
              + name
              + ".warehouse (a directory)");
    }
    this.warehouse = Path.of(dir);
    try {
      Files.createDirectories(warehouse);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create warehouse " + warehouse, e);
    }
  }

  @Override
  public String name() {
    return name;
  }

  private Path namespace(String[] namespace) throws NoSuchNamespaceException {
    Path dir = warehouse;
    for (String part : namespace) {
      dir = MosaicTable.resolve(dir, part);
    }
    if (!Files.isDirectory(dir)) {
      throw new NoSuchNamespaceException(namespace);
    }
    return dir;
  }

  private Path location(Identifier ident) throws NoSuchNamespaceException {
    return MosaicTable.resolve(namespace(ident.namespace()), ident.name());
  }

  private MosaicOptions options(Path root) {
    return new MosaicOptions(root.toString(), devices);
  }

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    List<Identifier> tables = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(namespace(namespace))) {
      dirs.filter(MosaicTable::exists)
          .sorted()
          .forEach(d -> tables.add(Identifier.of(namespace, d.getFileName().toString())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tables.toArray(new Identifier[0]);
  }

  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    try {
      Path root = location(ident);
      if (!MosaicTable.exists(root)) {
        throw new NoSuchTableException(ident);
      }
      return new MosaicSparkTable(options(root), null, true);
    } catch (NoSuchNamespaceException e) {
      throw new NoSuchTableException(ident);
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
    Path root = location(ident);
    if (MosaicTable.exists(root)) {
      throw new TableAlreadyExistsException(ident);
    }
    MosaicOptions o = options(root);
    MosaicTable.create(
        root,
        o.pool(),
        SparkTypes.fromSpark(schema),
        o.creationProperties(mosaicSettings(properties)));
    return new MosaicSparkTable(o, schema, true);
  }

  /**
   * The Mosaic settings among a CREATE TABLE's properties: TBLPROPERTIES ('row_group_rows' = ...)
   * and the options of DataFrameWriterV2, which Spark passes as {@code option.<name>}. Spark's own
   * properties (provider, owner, ...) are not Mosaic's.
   */
  private static Map<String, String> mosaicSettings(Map<String, String> properties) {
    Map<String, String> settings = new LinkedHashMap<>();
    properties.forEach(
        (key, value) -> {
          String k = key.startsWith("option.") ? key.substring("option.".length()) : key;
          if (k.equals(MosaicTable.ROW_GROUP_ROWS)
              || k.equals(MosaicTable.DEFAULT_DEVICE)
              || k.equals(MosaicOptions.PUSHDOWN)
              || (k.startsWith(MosaicTable.COLUMN_DEVICE_PREFIX) && k.endsWith(".device"))) {
            settings.put(k, value);
          }
        });
    return settings;
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
            + ".system.place and "
            + name
            + ".system.move_columns (docs/spark.md)");
  }

  @Override
  public Identifier[] listProcedures(String[] namespace) {
    if (namespace.length == 1 && namespace[0].equals(SYSTEM)) {
      return new Identifier[] {
        Identifier.of(namespace, PlacementProcedure.NAME),
        Identifier.of(namespace, PlaceProcedure.NAME),
        Identifier.of(namespace, MoveColumnsProcedure.NAME)
      };
    }
    return new Identifier[0];
  }

  /** The pool of this catalog's tables. */
  DevicePool pool() {
    return new MosaicOptions(warehouse.toString(), devices).pool();
  }

  /**
   * Opens table {@code namespace.table} (a procedure's {@code table} argument), or explains what
   * exists.
   */
  MosaicTable openTable(String qualifiedName) {
    String[] parts = qualifiedName == null ? new String[0] : qualifiedName.strip().split("\\.");
    if (parts.length < 2) {
      throw new IllegalArgumentException(
          "table => '"
              + qualifiedName
              + "' must name a table as namespace.table, e.g. table => 'tpch.lineitem'");
    }
    Identifier ident =
        Identifier.of(java.util.Arrays.copyOf(parts, parts.length - 1), parts[parts.length - 1]);
    try {
      Path root = location(ident);
      if (MosaicTable.exists(root)) {
        return MosaicTable.open(root, pool());
      }
    } catch (NoSuchNamespaceException e) {
      // explained below
    }
    throw new IllegalArgumentException(
        "no table "
            + qualifiedName
            + " in catalog "
            + name
            + " (warehouse "
            + warehouse
            + "); SHOW TABLES IN "
            + name
            + "."
            + String.join(".", ident.namespace())
            + " lists its tables");
  }

  @Override
  public Table alterTable(Identifier ident, TableChange... changes) {
    throw new UnsupportedOperationException("ALTER TABLE is not supported by Mosaic tables yet");
  }

  /** Drops the table through core ({@link MosaicTable#drop}): segments, device space, root. */
  @Override
  public boolean dropTable(Identifier ident) {
    try {
      Path root = location(ident);
      if (!MosaicTable.exists(root)) {
        return false;
      }
      MosaicTable.open(root, options(root).pool()).drop();
      return true;
    } catch (NoSuchNamespaceException e) {
      return false;
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }

  @Override
  public void renameTable(Identifier from, Identifier to) {
    throw new UnsupportedOperationException("RENAME TABLE is not supported by Mosaic tables yet");
  }

  @Override
  public String[][] listNamespaces() {
    List<String[]> namespaces = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(warehouse)) {
      dirs.filter(Files::isDirectory)
          .filter(d -> !MosaicTable.exists(d))
          .sorted()
          .forEach(d -> namespaces.add(new String[] {d.getFileName().toString()}));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return namespaces.toArray(new String[0][]);
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    namespace(namespace);
    return new String[0][];
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace)
      throws NoSuchNamespaceException {
    namespace(namespace);
    return Map.of();
  }

  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata)
      throws NamespaceAlreadyExistsException {
    Path dir = warehouse;
    for (String part : namespace) {
      dir = MosaicTable.resolve(dir, part);
    }
    if (Files.isDirectory(dir)) {
      throw new NamespaceAlreadyExistsException(namespace);
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create namespace " + dir, e);
    }
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes) {
    throw new UnsupportedOperationException("ALTER NAMESPACE is not supported by Mosaic");
  }

  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade)
      throws NoSuchNamespaceException {
    Path dir = namespace(namespace);
    if (!cascade && listTables(namespace).length > 0) {
      throw new IllegalStateException("namespace " + String.join(".", namespace) + " is not empty");
    }
    for (Identifier t : listTables(namespace)) {
      dropTable(t);
    }
    deleteTree(dir);
    return true;
  }
}
