package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.MosaicException.Kind;
import io.mosaic.device.DevicePool;
import io.mosaic.storage.MiniHdfs;
import io.mosaic.storage.Storage;
import io.mosaic.warehouse.Warehouse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link Warehouse} at an {@code hdfs://} URI: namespaces are folders with a marker, tables are
 * lock-free tables below them, and the names, errors and drops are those of a local warehouse.
 */
class HdfsWarehouseTest {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();

  @TempDir Path dir;
  private DevicePool pool;
  private String location;
  private Warehouse warehouse;

  @BeforeEach
  void setUp() throws IOException {
    Path devices = dir.resolve("devices.toml");
    Files.writeString(devices, HDFS.policyDevicesToml("wh-" + System.nanoTime()));
    pool = DevicePool.load(devices, HDFS.conf());
    location = HDFS.uri().toString().replaceAll("/$", "") + "/wh-" + System.nanoTime();
    warehouse = Warehouse.open(location, pool);
  }

  private static void assertKind(ThrowingCallable call, Kind kind, String message) {
    assertThatThrownBy(call)
        .isInstanceOf(MosaicException.class)
        .satisfies(e -> assertThat(((MosaicException) e).kind()).isEqualTo(kind))
        .hasMessageContaining(message);
  }

  private Storage storage() throws IOException {
    return HDFS.storage(location.substring(HDFS.uri().toString().length() - 1));
  }

  @Test
  void namespacesAndTablesLiveOnHdfs() throws IOException {
    assertThat(warehouse.location()).isEqualTo(location);
    assertThat(warehouse.root()).isNull();
    assertThat(warehouse.namespaces()).isEmpty();
    warehouse.createNamespace("tpch");
    assertKind(() -> warehouse.createNamespace("tpch"), Kind.CONFLICT, "already exists");
    storage().createExclusive("stray/notes.txt", new byte[] {1}); // a folder, not a namespace
    assertThat(warehouse.namespaces()).containsExactly("tpch");
    assertThat(warehouse.namespaceExists("stray")).isFalse();

    MosaicTable orders = warehouse.create("tpch", "orders", LockFreeTableContract.SCHEMA, Map.of());
    assertThat(orders.lockFree()).isTrue();
    assertThat(orders.location()).isEqualTo(location + "/tpch/orders");
    assertThat(warehouse.location("tpch", "orders")).isEqualTo(orders.location());
    List<List<Object>> rows = LockFreeTableContract.rows(0.002);
    TableFixtures.appendRows(orders, LockFreeTableContract.SCHEMA, rows);
    assertKind(
        () -> warehouse.create("tpch", "orders", LockFreeTableContract.SCHEMA, Map.of()),
        Kind.CONFLICT,
        "already exists");
    warehouse.create("tpch", "lineitem", LockFreeTableContract.SCHEMA, Map.of());

    assertThat(warehouse.tables("tpch")).containsExactly("lineitem", "orders");
    assertThat(warehouse.exists("tpch", "orders")).isTrue();
    MosaicTable reopened = warehouse.open("tpch", "orders");
    assertThat(LockFreeTableContract.scan(pool, reopened)).hasSameSizeAs(rows);
    // The same table by its URI, as Spark's path-based source names it.
    assertThat(MosaicTable.open(orders.location(), pool).latest().version())
        .isEqualTo(reopened.latest().version());

    assertKind(() -> warehouse.open("tpch", "nation"), Kind.NOT_FOUND, "no table 'tpch.nation'");
    assertKind(() -> warehouse.tables("none"), Kind.NOT_FOUND, "no namespace 'none'");
    assertKind(() -> warehouse.createNamespace("../x"), Kind.INVALID_ARGUMENT, "not allowed");
    assertKind(
        () -> warehouse.rename("tpch", "orders", "tpch", "o2"),
        Kind.UNSUPPORTED,
        "CREATE TABLE ... AS SELECT");
    assertThat(warehouse.exists("tpch", "orders")).isTrue();

    assertKind(() -> warehouse.dropNamespace("tpch", false), Kind.CONFLICT, "[lineitem, orders]");
    String ordersId = orders.latest().tableId();
    warehouse.drop("tpch", "lineitem");
    assertThat(warehouse.tables("tpch")).containsExactly("orders");
    warehouse.dropNamespace("tpch", true);
    assertThat(warehouse.namespaces()).isEmpty();
    assertThat(storage().stat("tpch")).isEmpty();
    // The devices hold nothing of the dropped tables.
    for (var d : pool.devices()) {
      assertThat(d.storage().list("")).noneMatch(f -> f.name().equals(ordersId));
    }
  }

  @Test
  void racingCreatorsOfANamespaceHaveOneWinner() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<Boolean>> tries = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Callable<Boolean> create =
            () -> {
              try {
                Warehouse.open(location, pool).createNamespace("race");
                return true;
              } catch (MosaicException e) {
                assertThat(e.kind()).isEqualTo(Kind.CONFLICT);
                return false;
              }
            };
        tries.add(threads.submit(create));
      }
      int winners = 0;
      for (Future<Boolean> f : tries) {
        winners += f.get() ? 1 : 0;
      }
      assertThat(winners).isEqualTo(1);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void badLocationsAreRefusedClearly() throws IOException {
    warehouse.createNamespace("s");
    MosaicTable t = warehouse.create("s", "t", LockFreeTableContract.SCHEMA, Map.of());
    assertKind(
        () -> Warehouse.open(t.location(), pool), Kind.INVALID_ARGUMENT, "a table's location");
    assertKind(() -> Warehouse.open("hdfs://nn host/w", pool), Kind.INVALID_ARGUMENT, "no URI");
    storage().createExclusive("file", new byte[] {1});
    assertKind(() -> Warehouse.open(location + "/file", pool), Kind.INVALID_ARGUMENT, "is a file");
    // Nothing listens on port 1: the error names the warehouse, and comes without long retries.
    assertThatThrownBy(() -> Warehouse.open("hdfs://127.0.0.1:1/w", pool).namespaces())
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("hdfs://127.0.0.1:1/w");
  }
}
