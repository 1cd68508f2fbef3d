package io.mosaic.trino;

import static io.mosaic.trino.MosaicErrorCode.MOSAIC_BAD_NAME;
import static io.mosaic.trino.MosaicErrorCode.MOSAIC_IO_ERROR;

import com.google.inject.Inject;
import io.mosaic.device.DevicePool;
import io.mosaic.scan.Retriever;
import io.mosaic.table.MosaicTable;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaNotFoundException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.TableNotFoundException;
import jakarta.annotation.PreDestroy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A catalog's storage: the device pool, the metadata directory (a schema is a directory in it, a
 * table a directory in its schema) and the node's one retriever (DESIGN section 5).
 */
final class MosaicStorage {
  /**
   * Longest schema or table name: each is a directory, and file systems (ext4, xfs, ...) allow 255
   * bytes per name; allowed names are ASCII, so characters are bytes.
   */
  static final int MAX_NAME_LENGTH = 255;

  private final MosaicConfig config;
  private final DevicePool pool;
  private final Path metadata;
  private final Retriever retriever;

  @Inject
  MosaicStorage(MosaicConfig config) {
    this.config = config;
    // Loading validates devices.toml at catalog startup, with the parser's own message.
    this.pool = DevicePool.load(Path.of(config.getDevicesConfig()));
    this.metadata = Path.of(config.getMetadataDirectory()).toAbsolutePath().normalize();
    if (Files.exists(metadata) && !Files.isDirectory(metadata)) {
      throw new IllegalArgumentException(
          "mosaic.metadata-directory="
              + metadata
              + " is a file, not a directory: point it at a directory");
    }
    try {
      Files.createDirectories(metadata);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot create mosaic.metadata-directory=" + metadata + ": " + e.getMessage(), e);
    }
    this.retriever =
        new Retriever(pool, config.getDecodeThreads(), config.getVectorPoolMemory().toBytes());
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

  /** A name as a directory under {@code parent}, refusing '/', '..' and the like. */
  private static Path resolve(Path parent, String name) {
    try {
      return MosaicTable.resolve(parent, name);
    } catch (IllegalArgumentException e) {
      throw new TrinoException(MOSAIC_BAD_NAME, e.getMessage(), e);
    }
  }

  /** Refuses a name too long to be a directory, before the file system fails on it. */
  private static void checkLength(String kind, String name) {
    if (name.length() > MAX_NAME_LENGTH) {
      throw new TrinoException(
          MOSAIC_BAD_NAME,
          kind
              + " name '"
              + name
              + "' is too long: "
              + name.length()
              + " characters, Mosaic allows "
              + MAX_NAME_LENGTH
              + " (the name is a directory); use a shorter name");
    }
  }

  Path schemaDirectory(String schema) {
    checkLength("schema", schema);
    return resolve(metadata, schema);
  }

  boolean schemaExists(String schema) {
    if (schema.length() > MAX_NAME_LENGTH) {
      return false; // could never have been created
    }
    Path dir = schemaDirectory(schema);
    return Files.isDirectory(dir) && !MosaicTable.exists(dir);
  }

  Path tableRoot(SchemaTableName name) {
    checkLength("table", name.getTableName());
    return resolve(schemaDirectory(name.getSchemaName()), name.getTableName());
  }

  boolean tableExists(SchemaTableName name) {
    if (name.getTableName().length() > MAX_NAME_LENGTH
        || name.getSchemaName().length() > MAX_NAME_LENGTH) {
      return false; // could never have been created
    }
    return MosaicTable.exists(tableRoot(name));
  }

  MosaicTable open(SchemaTableName name) {
    Path root = tableRoot(name);
    if (!MosaicTable.exists(root)) {
      throw new TableNotFoundException(name);
    }
    return call(() -> MosaicTable.open(root, pool));
  }

  List<String> schemas() {
    return list(metadata, d -> !MosaicTable.exists(d));
  }

  List<String> tables(String schema) {
    if (!schemaExists(schema)) {
      throw new SchemaNotFoundException(schema);
    }
    return list(schemaDirectory(schema), MosaicTable::exists);
  }

  private static List<String> list(Path dir, java.util.function.Predicate<Path> keep) {
    List<String> names = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(dir)) {
      dirs.filter(Files::isDirectory)
          .filter(keep)
          .map(d -> d.getFileName().toString())
          .sorted()
          .forEach(names::add);
    } catch (IOException e) {
      throw new TrinoException(MOSAIC_IO_ERROR, "cannot list " + dir + ": " + e.getMessage(), e);
    }
    return names;
  }

  void createSchema(String schema) {
    Path dir = schemaDirectory(schema);
    try {
      Files.createDirectory(dir);
    } catch (IOException e) {
      throw new TrinoException(
          MOSAIC_IO_ERROR, "cannot create schema directory " + dir + ": " + e, e);
    }
  }

  void dropSchema(String schema) {
    deleteTree(schemaDirectory(schema));
  }

  /** Drops a table through core ({@link MosaicTable#drop}): segments, device space, root. */
  void dropTable(SchemaTableName name) {
    MosaicTable table = open(name);
    call(
        () -> {
          table.drop();
          return null;
        });
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
      throw new TrinoException(MOSAIC_IO_ERROR, "cannot delete " + dir + ": " + e, e);
    }
  }

  /** Runs a core call, turning core's failures into Trino errors with core's message. */
  static <T> T call(Supplier<T> action) {
    return MosaicErrors.call(action);
  }
}
