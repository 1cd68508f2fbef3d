package io.mosaic.trino;

import static io.trino.spi.ErrorType.EXTERNAL;
import static io.trino.spi.ErrorType.INSUFFICIENT_RESOURCES;
import static io.trino.spi.ErrorType.USER_ERROR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.table.MosaicTable;
import io.trino.client.ErrorInfo;
import io.trino.client.FailureException;
import io.trino.execution.Failure;
import io.trino.spi.ErrorCode;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.ErrorType;
import io.trino.spi.StandardErrorCode;
import io.trino.spi.TrinoException;
import io.trino.testing.DistributedQueryRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * One failure of each kind, provoked for real through SQL, reaches the user with the code and error
 * type {@link MosaicErrors} gives its kind. Besides the {@code mosaic} catalog, two catalogs see
 * the same tables and devices under other device settings: {@code cramped}, whose devices hold 1 kB
 * each, and {@code sluggish}, whose "fast" device reads at 60 kB/s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicErrorsTest {
  @TempDir static Path dir;
  private DistributedQueryRunner runner;

  @BeforeAll
  void start() throws Exception {
    runner = MosaicQueryRunner.create(dir);
    createVariant("cramped", "1 kB", "4 GB/s");
    createVariant("sluggish", "10 GB", "60 kB/s");
    MosaicQueryRunner.writeDeviceModel(dir);
    runner.execute("CREATE SCHEMA mosaic.tiny");
    runner.execute(
        "CREATE TABLE orders WITH (default_device = 'fast') AS SELECT * FROM tpch.tiny.orders");
  }

  /** A catalog over the same metadata and device directories, with other capacities and speeds. */
  private void createVariant(String name, String capacity, String fastRead) throws Exception {
    Path toml = dir.resolve(name + ".toml");
    Files.writeString(
        toml,
        Files.readString(dir.resolve("devices.toml"))
            .replace("capacity = \"10 GB\"", "capacity = \"" + capacity + "\"")
            .replaceFirst("read = \"4 GB/s\"", "read = \"" + fastRead + "\""));
    Map<String, String> properties =
        new java.util.HashMap<>(MosaicQueryRunner.catalogProperties(dir));
    properties.put("mosaic.devices-config", toml.toString());
    runner.createCatalog(name, "mosaic", properties);
  }

  @AfterAll
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  /** The error code Trino reports for a failed query, with its type. */
  static ErrorCode errorCode(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof TrinoException e) {
        return e.getErrorCode();
      }
      if (c instanceof Failure f && f.getFailureInfo().getErrorCode() != null) {
        return f.getFailureInfo().getErrorCode();
      }
      if (c instanceof FailureException f && f.getFailureInfo().getErrorInfo() != null) {
        ErrorInfo info = f.getFailureInfo().getErrorInfo();
        return new ErrorCode(info.getCode(), info.getName(), ErrorType.valueOf(info.getType()));
      }
    }
    throw new AssertionError("no error code in " + t, t);
  }

  private void assertFails(String sql, ErrorCodeSupplier code, ErrorType type, String message) {
    assertThat(code.toErrorCode().getType()).isEqualTo(type);
    assertThatThrownBy(() -> runner.execute(sql))
        .hasMessageContaining(message)
        .satisfies(
            e -> {
              ErrorCode actual = errorCode(e);
              assertThat(actual.getName()).isEqualTo(code.toErrorCode().getName());
              assertThat(actual.getCode()).isEqualTo(code.toErrorCode().getCode());
              assertThat(actual.getType()).isEqualTo(type);
            });
  }

  @Test
  void invalidArgument() {
    assertFails(
        "CALL mosaic.system.move_columns('tiny', 'orders', 'o_comment')",
        MosaicErrorCode.MOSAIC_INVALID_ARGUMENT,
        USER_ERROR,
        "must be COLUMN=DEVICE");
  }

  /** An unknown column was MOSAIC_BAD_DEVICE before kinds (any IllegalArgumentException was). */
  @Test
  void notFound() {
    assertFails(
        "CALL mosaic.system.move_columns('tiny', 'orders', 'nope=slow')",
        MosaicErrorCode.MOSAIC_NOT_FOUND,
        USER_ERROR,
        "unknown column 'nope'");
    assertFails(
        "CALL mosaic.system.move_columns('tiny', 'orders', 'o_comment=ssd')",
        MosaicErrorCode.MOSAIC_NOT_FOUND,
        USER_ERROR,
        "unknown device 'ssd'");
  }

  @Test
  void corrupt() throws Exception {
    runner.execute("CREATE TABLE damaged AS SELECT * FROM tpch.tiny.region");
    Path manifests = dir.resolve("metadata/tiny/damaged").resolve(MosaicTable.MANIFESTS);
    Path latest;
    try (Stream<Path> files = Files.list(manifests)) {
      latest = files.filter(f -> f.toString().endsWith(".json")).sorted().reduce((a, b) -> b).get();
    }
    Files.writeString(latest, "{\"not\": \"a manifest\"");
    assertFails(
        "SELECT * FROM damaged",
        MosaicErrorCode.MOSAIC_CORRUPT_TABLE,
        EXTERNAL,
        latest.getFileName().toString());
  }

  /**
   * Two moves of one column at once, each copying for seconds from the slow-reading device: both
   * plan from the same version, the first to commit wins, the second refuses to commit.
   */
  @Test
  void conflict() throws Exception {
    runner.execute(
        "CREATE TABLE contested WITH (default_device = 'fast') AS"
            + " SELECT o_orderkey, o_comment FROM tpch.tiny.orders");
    String sql = "CALL sluggish.system.move_columns('tiny', 'contested', 'o_comment=slow')";
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Future<Throwable>> calls = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        calls.add(
            threads.submit(
                () -> {
                  start.await();
                  try {
                    runner.execute(sql);
                    return null;
                  } catch (RuntimeException e) {
                    return e;
                  }
                }));
      }
      start.countDown();
      List<Throwable> failures = new ArrayList<>();
      for (Future<Throwable> call : calls) {
        Throwable t = call.get();
        if (t != null) {
          failures.add(t);
        }
      }
      assertThat(failures).as("exactly one of the two moves loses").hasSize(1);
      assertThat(failures.get(0)).hasMessageContaining("changed during migration");
      ErrorCode code = errorCode(failures.get(0));
      assertThat(code.getName()).isEqualTo("MOSAIC_COMMIT_CONFLICT");
      assertThat(code.getType()).isEqualTo(EXTERNAL);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void deviceFull() {
    assertFails(
        "CREATE TABLE cramped.tiny.big WITH (default_device = 'slow') AS"
            + " SELECT * FROM tpch.tiny.orders",
        MosaicErrorCode.MOSAIC_DEVICE_FULL,
        INSUFFICIENT_RESOURCES,
        "device 'slow'");
  }

  /** The table's scanned columns fit on no device of 1 kB: no placement exists. */
  @Test
  void infeasible() {
    runner.execute("SELECT count(*), max(o_comment) FROM orders WHERE o_totalprice > 10");
    assertFails(
        "CALL cramped.system.place('tiny', 'orders')",
        MosaicErrorCode.MOSAIC_CANNOT_PLACE,
        USER_ERROR,
        "cannot place tiny.orders");
  }

  @Test
  void unsupported() {
    assertFails(
        "CREATE TABLE tagged (t map(varchar, bigint))",
        StandardErrorCode.NOT_SUPPORTED,
        USER_ERROR,
        "which Mosaic cannot store");
    assertFails(
        "CREATE TABLE zoned (t timestamp(3) with time zone)",
        StandardErrorCode.NOT_SUPPORTED,
        USER_ERROR,
        "use timestamp(6) with time zone");
  }

  /** Where the new table's directory must go is a file: the file system refuses. */
  @Test
  void io() throws Exception {
    Files.writeString(dir.resolve("metadata/tiny/blocked"), "not a directory");
    assertFails(
        "CREATE TABLE blocked (x bigint)", MosaicErrorCode.MOSAIC_IO_ERROR, EXTERNAL, "blocked");
  }
}
