package io.mosaic.trino;

import static io.mosaic.trino.MosaicErrorCode.MOSAIC_BAD_NAME;
import static io.mosaic.trino.MosaicErrorCode.MOSAIC_BAD_TABLE_PROPERTY;
import static io.mosaic.trino.MosaicErrorCode.MOSAIC_IO_ERROR;
import static io.trino.spi.StandardErrorCode.SCHEMA_NOT_EMPTY;
import static io.trino.spi.StandardErrorCode.TABLE_ALREADY_EXISTS;

import com.google.inject.Inject;
import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.TableSchema;
import io.mosaic.scan.Retriever;
import io.mosaic.storage.StorageOpener;
import io.mosaic.table.MosaicTable;
import io.mosaic.warehouse.Warehouse;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaNotFoundException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;
import jakarta.annotation.PreDestroy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * A catalog's storage: the device pool, the warehouse in the metadata directory (core's {@link
 * Warehouse}: a schema is one of its namespaces) and the node's one retriever (paper Section 3.3).
 * Schemas and tables are the warehouse's; this class turns its errors into Trino's.
 */
final class MosaicStorage {
  /** Longest schema or table name: core's ({@link Warehouse#MAX_NAME_LENGTH}). */
  static final int MAX_NAME_LENGTH = Warehouse.MAX_NAME_LENGTH;

  private final MosaicConfig config;
  private final DevicePool pool;
  private final Warehouse warehouse;
  private final Retriever retriever;

  @Inject
  MosaicStorage(MosaicConfig config, StorageOpener storages) {
    this.config = config;
    // Loading validates devices.toml at catalog startup, with the parser's own message, and
    // reaches each device on HDFS or S3 (through the catalog's own S3 file system where enabled).
    this.pool = DevicePool.load(Path.of(config.getDevicesConfig()), storages);
    String metadata = config.getMetadataDirectory();
    if (!MosaicTable.isRemote(metadata)) {
      Path dir = Path.of(metadata).toAbsolutePath().normalize();
      if (Files.exists(dir) && !Files.isDirectory(dir)) {
        throw new IllegalArgumentException(
            "mosaic.metadata-directory="
                + dir
                + " is a file, not a directory: point it at a directory");
      }
      metadata = dir.toString();
    }
    try {
      // A URI (hdfs://nn:8020/mosaic/metadata) keeps schemas and tables on that storage.
      this.warehouse = Warehouse.open(metadata, pool);
    } catch (MosaicException e) {
      throw new IllegalArgumentException("mosaic.metadata-directory: " + e.getMessage(), e);
    }
    this.retriever =
        new Retriever(
            pool,
            config.getDecodeThreads(),
            config.getVectorPoolMemory().toBytes(),
            config.sharingPolicy(),
            config.getSharedBufferMemory().toBytes());
  }

  MosaicConfig config() {
    return config;
  }

  DevicePool pool() {
    return pool;
  }

  Retriever retriever() {
    return retriever;
  }

  @PreDestroy
  void close() {
    retriever.close();
  }

  /**
   * Runs a warehouse call: a refused name is {@code MOSAIC_BAD_NAME}, a file system failure {@code
   * MOSAIC_IO_ERROR}, both with core's message; other kinds are left to the caller.
   */
  private static <T> T named(Supplier<T> action) {
    try {
      return action.get();
    } catch (MosaicException e) {
      switch (e.kind()) {
        case INVALID_ARGUMENT -> throw new TrinoException(MOSAIC_BAD_NAME, e.getMessage(), e);
        case IO -> throw new TrinoException(MOSAIC_IO_ERROR, e.getMessage(), e);
        default -> throw e;
      }
    }
  }

  boolean schemaExists(String schema) {
    return named(() -> warehouse.namespaceExists(schema));
  }

  boolean tableExists(SchemaTableName name) {
    return named(() -> warehouse.exists(name.getSchemaName(), name.getTableName()));
  }

  MosaicTable open(SchemaTableName name) {
    if (!tableExists(name)) {
      throw new TableNotFoundException(name);
    }
    return call(() -> warehouse.open(name.getSchemaName(), name.getTableName()));
  }

  List<String> schemas() {
    return named(warehouse::namespaces);
  }

  List<String> tables(String schema) {
    if (!schemaExists(schema)) {
      throw new SchemaNotFoundException(schema);
    }
    return named(() -> warehouse.tables(schema));
  }

  void createSchema(String schema) {
    named(
        () -> {
          warehouse.createNamespace(schema);
          return null;
        });
  }

  /** Drops a schema; with {@code cascade} its tables first, each as {@link #dropTable}. */
  void dropSchema(String schema, boolean cascade) {
    if (!schemaExists(schema)) {
      throw new SchemaNotFoundException(schema);
    }
    try {
      named(
          () -> {
            warehouse.dropNamespace(schema, cascade);
            return null;
          });
    } catch (MosaicException e) {
      if (e.kind() == MosaicException.Kind.CONFLICT) {
        throw new TrinoException(SCHEMA_NOT_EMPTY, e.getMessage(), e);
      }
      throw MosaicErrors.toTrino(e);
    }
  }

  /**
   * Creates a table; a property core refuses (an unknown device, a bad row-group size) is {@code
   * MOSAIC_BAD_TABLE_PROPERTY}.
   */
  MosaicTable createTable(
      SchemaTableName name, TableSchema schema, java.util.Map<String, String> properties) {
    named(() -> warehouse.location(name.getSchemaName(), name.getTableName()));
    try {
      return warehouse.create(name.getSchemaName(), name.getTableName(), schema, properties);
    } catch (IllegalArgumentException e) {
      throw new TrinoException(MOSAIC_BAD_TABLE_PROPERTY, e.getMessage(), e);
    } catch (MosaicException e) {
      switch (e.kind()) {
        case INVALID_ARGUMENT ->
            throw new TrinoException(MOSAIC_BAD_TABLE_PROPERTY, e.getMessage(), e);
        case CONFLICT -> throw new TrinoException(TABLE_ALREADY_EXISTS, e.getMessage(), e);
        case NOT_FOUND -> {
          if (!schemaExists(name.getSchemaName())) {
            throw new SchemaNotFoundException(name.getSchemaName());
          }
          // An unknown default_device or column device is a property core refuses.
          throw new TrinoException(MOSAIC_BAD_TABLE_PROPERTY, e.getMessage(), e);
        }
        default -> throw MosaicErrors.toTrino(e);
      }
    } catch (java.io.UncheckedIOException e) {
      throw new TrinoException(MOSAIC_IO_ERROR, e.getMessage(), e);
    }
  }

  /** Drops a table through core ({@link Warehouse#drop}): segments, device space, root. */
  void dropTable(SchemaTableName name) {
    if (!tableExists(name)) {
      throw new TableNotFoundException(name);
    }
    call(
        () -> {
          warehouse.drop(name.getSchemaName(), name.getTableName());
          return null;
        });
  }

  /** ALTER TABLE ... RENAME TO ({@link Warehouse#rename}): the root moves, the segments stay. */
  void renameTable(SchemaTableName from, SchemaTableName to) {
    if (!tableExists(from)) {
      throw new TableNotFoundException(from);
    }
    named(() -> warehouse.location(to.getSchemaName(), to.getTableName()));
    if (!schemaExists(to.getSchemaName())) {
      throw new SchemaNotFoundException(to.getSchemaName());
    }
    if (tableExists(to)) {
      throw new TrinoException(TABLE_ALREADY_EXISTS, "table " + to + " already exists");
    }
    named(
        () ->
            call(
                () -> {
                  warehouse.rename(
                      from.getSchemaName(),
                      from.getTableName(),
                      to.getSchemaName(),
                      to.getTableName());
                  return null;
                }));
  }

  /** Runs a core call, turning core's failures into Trino errors with core's message. */
  static <T> T call(Supplier<T> action) {
    return MosaicErrors.call(action);
  }
}
