package io.mosaic.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.MosaicException.Kind;
import io.mosaic.table.MosaicTable;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One failure of each kind, provoked for real through the command line, exits with its documented
 * status (docs/README.md, "Exit codes") and prints one line, not a stack trace.
 */
class ExitCodesTest {
  @TempDir Path dir;
  private Path devices;
  private String[] pool;

  /** What a run printed and returned. */
  record Run(int status, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = MosaicCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(status, out.toString(), err.toString());
  }

  /** A two-device pool whose nvme reads at {@code nvmeRead}; hdd holds {@code hddCapacity}. */
  private static String pool(String hddCapacity, String nvmeRead) {
    return """
        [[device]]
        id = "nvme"
        path = "pool/nvme"
        capacity = "1 GB"
        threads = 1
        codec = "zstd"
        cost_per_gb = "125 ct"
        metadata = true
        emulate = { read = "%s" }

        [[device]]
        id = "hdd"
        path = "pool/hdd"
        capacity = "%s"
        threads = 1
        codec = "zstd"
        cost_per_gb = "30 ct"
        emulate = { read = "1 GB/s" }
        """
        .formatted(nvmeRead, hddCapacity);
  }

  @BeforeEach
  void tableOfOrders() throws IOException {
    devices = dir.resolve("devices.toml");
    Files.writeString(devices, pool("1 GB", "1 GB/s"));
    Path table = dir.resolve("pool/nvme/orders");
    pool = new String[] {"--devices", devices.toString(), "--table", table.toString()};
    MessageType schema =
        MessageTypeParser.parseMessageType(
            "message m { required int64 o_orderkey; required binary o_comment (STRING); }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    Path parquet = dir.resolve("orders.parquet");
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(parquet)).withType(schema).build()) {
      for (Order o : new OrderGenerator(0.01, 1, 1)) {
        writer.write(
            groups
                .newGroup()
                .append("o_orderkey", o.getOrderKey())
                .append("o_comment", o.getComment()));
      }
    }
    Run imported = run(concat(new String[] {"import", "--create"}, pool, parquet.toString()));
    assertThat(imported.status()).as(imported.err()).isZero();
  }

  private static void assertFails(Run run, Kind kind, int status, String message) {
    assertThat(MosaicCli.exitCode(kind)).isEqualTo(status); // the documented number
    assertThat(run.status()).as(run.err()).isEqualTo(status);
    assertThat(run.err()).contains(message).doesNotContain("\tat ");
  }

  @Test
  void usageErrorsKeepTwo() {
    assertThat(run("nope").status()).isEqualTo(MosaicCli.USAGE_ERROR).isEqualTo(2);
    assertThat(run("table", "--no-such-option").status()).isEqualTo(2);
  }

  @Test
  void invalidArgument() {
    assertFails(
        run("calibrate", "--devices", devices.toString(), "--codecs", "gzip"),
        Kind.INVALID_ARGUMENT,
        1,
        "unknown codec 'gzip'");
  }

  @Test
  void notFound() {
    assertFails(
        run(concat(new String[] {"migrate", "--set", "nope=hdd"}, pool)),
        Kind.NOT_FOUND,
        3,
        "unknown column 'nope'");
  }

  @Test
  void corrupt() throws IOException {
    Path manifests = dir.resolve("pool/nvme/orders").resolve(MosaicTable.MANIFESTS);
    Path latest;
    try (Stream<Path> files = Files.list(manifests)) {
      latest =
          files
              .filter(f -> f.toString().endsWith(".json"))
              .sorted()
              .reduce((a, b) -> b)
              .orElseThrow();
    }
    Files.writeString(latest, "{\"not\": \"a manifest\"");
    assertFails(run(concat(new String[] {"table"}, pool)), Kind.CORRUPT, 4, latest.toString());
  }

  /**
   * Two migrations of one column at once, each copying for seconds from a slow device: both plan
   * from the same version, the first to commit wins, the second finds the segments it copied gone
   * from the table and refuses to commit.
   */
  @Test
  void conflict() throws Exception {
    Files.writeString(devices, pool("1 GB", "60 kB/s"));
    String[] args = concat(new String[] {"migrate", "--set", "o_comment=hdd"}, pool);
    // Loaded once before, so that neither run waits for the other's class loading to plan.
    assertThat(run(concat(args, new String[] {"--dry-run"})).status()).isZero();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Future<Run>> runs = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        runs.add(
            threads.submit(
                () -> {
                  start.await();
                  return run(args);
                }));
      }
      start.countDown();
      List<Run> done = new ArrayList<>();
      for (Future<Run> f : runs) {
        done.add(f.get());
      }
      assertThat(done).extracting(Run::status).containsExactlyInAnyOrder(0, 5);
      Run lost = done.stream().filter(r -> r.status() != 0).findFirst().orElseThrow();
      assertFails(lost, Kind.CONFLICT, 5, "changed during migration");
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void deviceFull() throws IOException {
    Files.writeString(devices, pool("10 kB", "1 GB/s"));
    assertFails(
        run(concat(new String[] {"migrate", "--set", "o_comment=hdd"}, pool)),
        Kind.DEVICE_FULL,
        6,
        "device 'hdd'");
  }

  /** A solver's solution file that says the exported model has no solution. */
  @Test
  void infeasible() throws IOException {
    String[] planning = {
      "--catalog", "table1", "--trace", "tpch", "--sizes", "tpch-sf1", "--budget", "3 EUR"
    };
    Path model = dir.resolve("m.lp");
    Run exported =
        run(
            concat(
                new String[] {"export-mip"}, planning, "--format", "lp", "-o", model.toString()));
    assertThat(exported.status()).as(exported.err()).isZero();
    Path solution = dir.resolve("cbc.sol");
    Files.writeString(solution, "Infeasible - objective value 0.00000000\n");
    assertFails(
        run(concat(new String[] {"import-solution"}, planning, solution.toString())),
        Kind.INFEASIBLE,
        7,
        "found the model infeasible");
  }

  @Test
  void unsupported() throws IOException {
    MessageType schema = MessageTypeParser.parseMessageType("message m { repeated int32 xs; }");
    Path parquet = dir.resolve("lists.parquet");
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(parquet)).withType(schema).build()) {
      writer.write(new SimpleGroupFactory(schema).newGroup().append("xs", 1).append("xs", 2));
    }
    String[] other = {"--devices", devices.toString(), "--table", dir.resolve("lists").toString()};
    assertFails(
        run(concat(new String[] {"import", "--create"}, other, parquet.toString())),
        Kind.UNSUPPORTED,
        8,
        "is nested or repeated");
  }

  /** A directory where the table's segments must go is a file: the file system refuses. */
  @Test
  void io() throws IOException {
    Path file = dir.resolve("not-a-directory");
    Files.writeString(file, "x");
    String[] other = {"--devices", devices.toString(), "--table", file.resolve("t").toString()};
    assertFails(
        run(
            concat(
                new String[] {"import", "--create"},
                other,
                dir.resolve("orders.parquet").toString())),
        Kind.IO,
        9,
        file.toString());
  }

  private static String[] concat(String[] a, String[] b, String... c) {
    String[] all = new String[a.length + b.length + c.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    System.arraycopy(c, 0, all, a.length + b.length, c.length);
    return all;
  }
}
