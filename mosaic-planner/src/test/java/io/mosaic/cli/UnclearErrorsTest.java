package io.mosaic.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.table.MosaicTable;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * Bad input through the command line gets one line that says what failed and what would fix it,
 * naming the option or file, with no stack trace and no Java class name, and the committed table
 * stays as it was (docs/README.md, "Errors").
 */
class UnclearErrorsTest {
  @TempDir Path dir;
  private Path devices;
  private Path table;
  private Path parquet;

  record Run(int status, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = MosaicCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(status, out.toString(), err.toString());
  }

  /**
   * Writes TPC-H SF 0.001's order keys and comments as a Parquet file, as another tool would;
   * returns the rows written.
   */
  static long writeOrders(Path file) throws IOException {
    MessageType schema =
        MessageTypeParser.parseMessageType(
            "message m { required int64 o_orderkey; required binary o_comment (STRING); }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    long rows = 0;
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file)).withType(schema).build()) {
      for (Order o : new OrderGenerator(0.001, 1, 1)) {
        writer.write(
            groups
                .newGroup()
                .append("o_orderkey", o.getOrderKey())
                .append("o_comment", o.getComment()));
        rows++;
      }
    }
    return rows;
  }

  @BeforeEach
  void tableOfOrders() throws IOException {
    devices = dir.resolve("devices.toml");
    writePool("1 GB");
    table = dir.resolve("pool/nvme/orders");
    parquet = dir.resolve("orders.parquet");
    writeOrders(parquet);
    Run imported = run(args("import", "--create", parquet.toString()));
    assertThat(imported.status()).as(imported.err()).isZero();
  }

  private void writePool(String hddCapacity) throws IOException {
    Files.writeString(
        devices,
        """
        [[device]]
        id = "nvme"
        path = "pool/nvme"
        capacity = "1 GB"
        threads = 1
        codec = "zstd"
        cost_per_gb = "125 ct"
        metadata = true
        emulate = { read = "1 GB/s" }

        [[device]]
        id = "hdd"
        path = "pool/hdd"
        capacity = "%s"
        threads = 1
        codec = "zstd"
        cost_per_gb = "30 ct"
        emulate = { read = "1 GB/s" }
        """
            .formatted(hddCapacity));
  }

  /** {@code command} with the pool and the table, then {@code more}. */
  private String[] args(String command, String... more) {
    List<String> all = new ArrayList<>(List.of(command, "--devices", devices.toString()));
    all.addAll(List.of("--table", table.toString()));
    all.addAll(Arrays.asList(more));
    return all.toArray(String[]::new);
  }

  /** One clear line: the status, the words, no stack trace, no Java class name. */
  private static void assertClear(Run run, int status, String... words) {
    assertThat(run.status()).as(run.err()).isEqualTo(status);
    assertThat(run.err())
        .contains(words)
        .doesNotContain("\tat ")
        .doesNotContain("java.")
        .doesNotContain("Exception");
  }

  private long version() {
    return MosaicTable.open(table, DevicePool.load(devices)).latest().version();
  }

  @Test
  void anEmptyPathIsRefusedNotTakenForTheWorkingDirectory() {
    Path cwd = Path.of("").toAbsolutePath();
    boolean wasTable = Files.exists(cwd.resolve(MosaicTable.MANIFESTS));
    Run run =
        run(
            "import",
            "--devices",
            devices.toString(),
            "--table",
            "",
            "--create",
            parquet.toString());
    assertClear(run, MosaicCli.USAGE_ERROR, "--table", "the path is empty");
    assertThat(Files.exists(cwd.resolve(MosaicTable.MANIFESTS))).isEqualTo(wasTable);
    assertClear(
        run("table", "--devices", " ", "--table", table.toString()),
        MosaicCli.USAGE_ERROR,
        "--devices",
        "the path is empty");
    assertClear(run(args("import", "")), MosaicCli.USAGE_ERROR, "PARQUET", "the path is empty");
  }

  @Test
  void rateErrorsNameTheOption() {
    long before = version();
    assertClear(
        run(args("maintain", "--rate", "-5MB/s")),
        1,
        "--rate '-5MB/s' is not a usable rate",
        "e.g. '50MB/s'");
    assertClear(run(args("maintain", "--rate", "0")), 1, "--rate '0'", "missing unit");
    assertClear(run(args("maintain", "--full-rate", "fast")), 1, "--full-rate 'fast'");
    assertClear(run(args("maintain", "--device-rate", "hdd=0")), 1, "--device-rate entry 'hdd=0'");
    assertThat(version()).isEqualTo(before);
  }

  @Test
  void graceTakesTheDurationsTimeLimitTakes() {
    assertClear(
        run(args("gc", "--grace", "soon")),
        MosaicCli.USAGE_ERROR,
        "--grace",
        "'soon' is not a duration",
        "'1h', '2m'");
    long before = version();
    for (String grace : List.of("1h", "2m", "PT1H", "0")) {
      Run run = run(args("gc", "--grace", grace));
      assertThat(run.status()).as(grace + ": " + run.err()).isZero();
    }
    assertThat(version()).isEqualTo(before);
  }

  @Test
  void reversedEmptyAndMalformedRowRangesSaySo() {
    long before = version();
    assertClear(
        run(args("migrate", "--set", "o_comment[5:2]=hdd")),
        1,
        "row range o_comment[5:2] is reversed",
        "FROM must be below TO",
        "o_comment[2:5]");
    assertClear(
        run(args("migrate", "--set", "o_comment[3:3]=hdd")),
        1,
        "row range o_comment[3:3] is empty",
        "o_comment[3:4]");
    for (String bad : List.of("o_comment[-1:3]", "o_comment[a:b]")) {
      assertClear(
          run(args("migrate", "--set", bad + "=hdd")),
          1,
          "row range '" + bad + "' is malformed",
          "COLUMN[FROM:TO]",
          "o_comment[0:4]");
    }
    assertThat(version()).isEqualTo(before);
  }

  @Test
  void importOfAFileThatIsNotParquetNamesTheFile() throws IOException {
    Path text = dir.resolve("notes.parquet");
    Files.writeString(text, "these are notes, not a Parquet file\n".repeat(4));
    long before = version();
    Run run = run(args("import", text.toString()));
    assertClear(run, 1, text + " is not a Parquet file", "give Parquet files");
    assertThat(run.err()).doesNotContain("LocalInputFile");
    assertThat(version()).isEqualTo(before);
  }

  /** picocli's warnings go to the process's standard error, not the command's writer. */
  @Test
  void helpAndUsageErrorsPrintNoPicocliWarnings() {
    java.io.PrintStream saved = System.err;
    java.io.ByteArrayOutputStream stderr = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(stderr, true, java.nio.charset.StandardCharsets.UTF_8));
    Run usage;
    try {
      for (String command : new picocli.CommandLine(new MosaicCli()).getSubcommands().keySet()) {
        Run help = run(command, "--help");
        assertThat(help.err() + help.out()).as(command).doesNotContain("Could not format");
      }
      usage = run("place", "--no-such-option");
    } finally {
      System.setErr(saved);
    }
    assertThat(stderr.toString(java.nio.charset.StandardCharsets.UTF_8))
        .doesNotContain("Could not format");
    assertThat(usage.status()).isEqualTo(MosaicCli.USAGE_ERROR);
    assertThat(usage.err()).contains("allows 10 %.");
    // --strategy lists the placement package's names (StrategyName), not a copy of them.
    assertThat(usage.err()).contains("lopt, hot-column, hot-table:");
  }

  @Test
  void aPlanInADirectoryThatDoesNotExistIsRefusedBeforeSolving() {
    Path plan = dir.resolve("nonexistent/dir/p.csv");
    assertClear(
        run(args("place", "--plan", plan.toString())),
        3,
        "--plan " + plan,
        "the directory " + plan.getParent() + " does not exist",
        "create it");
  }

  @Test
  void aFullDeviceSaysWhatCountsAgainstItsCapacity() throws IOException {
    writePool("100 kB");
    Path hdd = dir.resolve("pool/hdd");
    Files.createDirectories(hdd);
    Files.write(hdd.resolve("someone-elses.bin"), new byte[200_000]);
    long before = version();
    Run run = run(args("migrate", "--set", "o_comment=hdd"));
    assertClear(
        run, 6, "device 'hdd'", "files under " + hdd, "all files there count, not only Mosaic's");
    assertThat(run.err()).doesNotContain("Mosaic data there");
    assertThat(version()).isEqualTo(before);
  }

  /**
   * A table's folder on a device that a symbolic link takes to another disk: a write there is
   * refused, naming the folder, the device and the fix, and nothing lands outside the device.
   */
  @Test
  void aSymlinkedTableFolderOnADeviceIsRefused() throws IOException {
    String tableId = MosaicTable.open(table, DevicePool.load(devices)).latest().tableId();
    Path hdd = Files.createDirectories(dir.resolve("pool/hdd"));
    Path elsewhere = Files.createDirectories(dir.resolve("another-disk"));
    Path folder = Files.createSymbolicLink(hdd.resolve(tableId), elsewhere);
    long before = version();
    assertClear(
        run(args("migrate", "--set", "o_comment=hdd")),
        1,
        "folder " + folder,
        "of device 'hdd' is a link to " + elsewhere.toRealPath(),
        "replace the link by a real folder");
    try (var files = Files.walk(elsewhere)) {
      assertThat(files.filter(Files::isRegularFile).map(f -> f.getFileName().toString()))
          .allMatch(name -> name.startsWith("_"));
    }
    assertThat(version()).isEqualTo(before);
  }

  /**
   * A table root nobody may write: every command that writes beside the commits says that the
   * folder is read-only, naming it, and what would fix it. Root ignores permissions, so there the
   * folder is made immutable with {@code chattr +i} instead.
   */
  @Test
  void aReadOnlyTableRootSaysReadOnly() throws Exception {
    long before = version();
    ReadOnly readOnly = ReadOnly.make(table);
    try {
      for (String[] command :
          List.of(
              args("import", parquet.toString()),
              args("gc"),
              args("migrate", "--set", "o_comment=hdd"),
              args("analyze"))) {
        Run run = run(command);
        assertClear(run, 9, "is read-only or not writable", "make it writable");
      }
    } finally {
      readOnly.undo();
    }
    assertThat(version()).isEqualTo(before);
  }

  /** A folder and all in it made read-only for this user: by permissions, or as root by chattr. */
  record ReadOnly(Path folder, boolean chattr) {
    static ReadOnly make(Path folder) throws Exception {
      writable(folder, false);
      if (!Files.isWritable(folder)) {
        return new ReadOnly(folder, false);
      }
      writable(folder, true);
      Process p = new ProcessBuilder("chattr", "-R", "+i", folder.toString()).inheritIO().start();
      assertThat(p.waitFor()).as("chattr -R +i " + folder).isZero();
      return new ReadOnly(folder, true);
    }

    void undo() throws Exception {
      if (chattr) {
        new ProcessBuilder("chattr", "-R", "-i", folder.toString()).inheritIO().start().waitFor();
      } else {
        writable(folder, true);
      }
    }

    private static void writable(Path folder, boolean writable) throws IOException {
      try (var files = Files.walk(folder)) {
        files.forEach(f -> f.toFile().setWritable(writable, false));
      }
    }
  }
}
