package io.mosaic.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFolders;
import io.mosaic.table.TableWriter;
import io.mosaic.tpch.TpchTables;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The corrupt-input corpus (docs/benchmarks.md, "Corrupt-input corpus"): damaged copies of a
 * table's files, each opened by the CLI and by a scan with a time limit. Every case must give the
 * committed rows or a clear error that names the damaged file; none may hang, return other rows, or
 * end in a stack trace.
 *
 * <p>The template is TPC-H orders at SF 0.01 in four row groups, appended to once (two segments per
 * column), with two columns migrated to devices of other codecs and one scan in its trace. The
 * cases: the newest manifest truncated, bit-flipped, overwritten, emptied, made a directory, and
 * edited with a valid checksum (counts, ranges, types, paths, schema edits); segment files
 * truncated, bit-flipped, emptied, deleted and swapped between columns; trace files and {@code
 * devices.toml} truncated, bit-flipped and edited; copies of the table root (cp -a) written
 * through. Run whole from {@code CorruptInputCorpusTest} with {@code -Dmosaic.corpus.cases=all}; CI
 * runs a random sample.
 *
 * <p>The same cases go through SQL: the Spark and Trino modules' tests ({@code
 * SparkCorruptInputTest}, {@code MosaicCorruptInputTest}) run a query over each damaged copy
 * instead of the CLI, with the same rule; this class is shared with them through the planner's test
 * jar.
 */
public final class CorruptInputCorpus {
  /**
   * Whether {@code status} is the exit code of a failure with a kind (docs/README.md, "Errors"),
   * not of a bug. A method, not a constant: the engines' tests load this class without picocli.
   */
  private static boolean kindExitCode(int status) {
    return java.util.Arrays.stream(io.mosaic.MosaicException.Kind.values())
        .anyMatch(k -> MosaicCli.exitCode(k) == status);
  }

  static final long SCAN_LIMIT_SECONDS = 60;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One damaged copy: what was done, to which file (named in the error), and how. */
  public record Case(String name, String kind, Damage damage) {}

  public interface Damage {
    /** Damages the copy in {@code dir}; returns the file name an error must mention. */
    String apply(Path dir) throws IOException;
  }

  /**
   * What a case gave: {@code rows} (the committed ones), {@code error} (a clear one naming the
   * file), or what went wrong ({@code wrong}, {@code hang}, ...).
   */
  public record Outcome(Case c, String verdict, String detail) {
    public boolean ok() {
      return verdict.equals("rows") || verdict.equals("error");
    }
  }

  /** How one front end opens a damaged copy in {@code dir} whose damaged file is {@code file}. */
  public interface FrontEnd {
    Outcome check(Case c, Path dir, String file) throws Exception;
  }

  /** The verdicts of the cases run, per kind of damaged file, and the cases that failed. */
  public static final class Tally {
    private final Map<String, Map<String, Integer>> verdicts = new java.util.TreeMap<>();
    private final List<String> bad = new ArrayList<>();

    public void add(Outcome o) {
      verdicts
          .computeIfAbsent(o.c().kind(), k -> new java.util.TreeMap<>())
          .merge(o.verdict(), 1, Integer::sum);
      if (!o.ok()) {
        bad.add(o.c().name() + ": " + o.verdict() + ": " + o.detail());
      }
    }

    public List<String> bad() {
      return bad;
    }

    /** How many cases gave {@code verdict}, over every kind. */
    public int count(String verdict) {
      return verdicts.values().stream().mapToInt(m -> m.getOrDefault(verdict, 0)).sum();
    }

    /** One line: the front end, the seed, the cases run and the verdicts per kind. */
    public String summary(String frontEnd, long seed, int run, int all) {
      return String.format(
          Locale.ROOT,
          "corrupt-input corpus through %s, seed %d: %d of %d cases run: %d rows, %d clear errors,"
              + " %d failures; per kind: %s",
          frontEnd,
          seed,
          run,
          all,
          count("rows"),
          count("error"),
          bad.size(),
          verdicts);
    }
  }

  /** The seed of a run: {@code -Dmosaic.corpus.seed}, else a new one (printed with the counts). */
  public static long seed() {
    return Long.getLong("mosaic.corpus.seed", System.nanoTime());
  }

  /**
   * The cases a run takes: {@code -Dmosaic.corpus.cases=N} of them drawn by {@code seed} (default
   * {@code defaultSize}), or every one with {@code -Dmosaic.corpus.cases=all}.
   */
  public static List<Case> sample(List<Case> all, long seed, int defaultSize) {
    String size = System.getProperty("mosaic.corpus.cases", Integer.toString(defaultSize));
    List<Case> run = new ArrayList<>(all);
    if (!size.equals("all")) {
      java.util.Collections.shuffle(run, new Random(seed));
      run = run.subList(0, Math.min(run.size(), Integer.parseInt(size)));
    }
    return run;
  }

  private final Path template;
  private final long expectedRows;
  private final long expectedDigest;

  private CorruptInputCorpus(Path template, long rows, long digest) {
    this.template = template;
    this.expectedRows = rows;
    this.expectedDigest = digest;
  }

  /** The undamaged table's directory (its {@code devices.toml}, pool and {@code tables/orders}). */
  public Path template() {
    return template;
  }

  public static Path devices(Path dir) {
    return dir.resolve("devices.toml");
  }

  public static Path table(Path dir) {
    return dir.resolve("tables/orders");
  }

  /** Builds the template table in {@code dir}. */
  public static CorruptInputCorpus create(Path dir) throws IOException {
    for (String d : List.of("nvme", "ssd", "hdd")) {
      Files.createDirectories(dir.resolve("pool").resolve(d));
    }
    Files.writeString(
        devices(dir),
        """
        [[device]]
        id = "nvme"
        path = "pool/nvme"
        capacity = "1 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "125 ct"
        metadata = true

        [[device]]
        id = "ssd"
        path = "pool/ssd"
        capacity = "1 GB"
        threads = 2
        codec = "lz4"
        cost_per_gb = "60 ct"

        [[device]]
        id = "hdd"
        path = "pool/hdd"
        capacity = "1 GB"
        threads = 1
        codec = "none"
        cost_per_gb = "30 ct"
        """);
    DevicePool pool = DevicePool.load(devices(dir));
    MosaicTable table =
        TpchTables.load(
            TpchTable.ORDERS, 0.01, table(dir), pool, Map.of("row_group_rows", "4000"), n -> {});
    List<String> columns = columns(table.latest());
    // A second segment per column: the table's first 5,000 rows appended again.
    try (Retriever retriever = new Retriever(pool, 1, 0);
        Scan scan = retriever.scan(table, ScanRequest.of(columns).rowGroups(0, 2));
        TableWriter writer = table.newWriter()) {
      while (scan.hasNext()) {
        VectorSchemaRoot batch = scan.next();
        try (VectorSchemaRoot part = batch.slice(0, Math.min(batch.getRowCount(), 2500))) {
          writer.write(part);
        }
      }
      table.append(List.of(writer.finish()));
    }
    io.mosaic.maintenance.Migrator migrator = new io.mosaic.maintenance.Migrator(table);
    migrator.apply(
        migrator.plan(Map.of("o_comment", "ssd", "o_totalprice", "hdd")),
        new io.mosaic.maintenance.Migrator.Listener() {});
    long[] expected;
    try (Retriever retriever = new Retriever(pool, 1, 0)) {
      expected = digest(table, retriever); // also records a scan in the trace
    }
    return new CorruptInputCorpus(dir, expected[0], expected[1]);
  }

  static List<String> columns(Manifest m) {
    return m.schema().columns().stream().map(ColumnSpec::name).toList();
  }

  /** Row count and an order-sensitive digest of every value of a full scan. */
  static long[] digest(MosaicTable table, Retriever retriever) {
    long rows = 0;
    long digest = 17;
    try (Scan scan =
        retriever.scan(table, ScanRequest.of(columns(table.latest())).buffer(1 << 20))) {
      while (scan.hasNext()) {
        VectorSchemaRoot batch = scan.next();
        for (int r = 0; r < batch.getRowCount(); r++) {
          for (FieldVector v : batch.getFieldVectors()) {
            Object o = v.getObject(r);
            digest = digest * 31 + Objects.hashCode(o == null ? null : o.toString());
          }
        }
        rows += batch.getRowCount();
      }
    }
    return new long[] {rows, digest};
  }

  // ---- the cases

  public List<Case> cases(long seed) throws IOException {
    Random random = new Random(seed);
    List<Case> cases = new ArrayList<>();
    MosaicTable table = MosaicTable.open(table(template), DevicePool.load(devices(template)));
    Manifest m = table.latest();
    Path manifestFile = relative(manifestPath(template, m.version()));
    byte[] manifest = Files.readAllBytes(template.resolve(manifestFile));
    bytesCases(cases, "manifest", manifestFile, manifest.length, 320, random);
    cases.add(new Case("manifest emptied", "manifest", d -> write(d, manifestFile, new byte[0])));
    cases.add(
        new Case(
            "manifest made a directory",
            "manifest",
            d -> {
              Files.delete(d.resolve(manifestFile));
              Files.createDirectories(d.resolve(manifestFile));
              return manifestFile.getFileName().toString();
            }));
    cases.add(
        new Case(
            "every manifest deleted",
            "manifest",
            d -> {
              try (Stream<Path> files = Files.list(d.resolve(manifestFile).getParent())) {
                for (Path f : files.toList()) {
                  Files.delete(f);
                }
              }
              return "_manifests";
            }));
    semanticCases(cases, manifestFile, manifest, m, random);
    segmentCases(cases, m, random);
    traceCases(cases, random);
    devicesCases(cases, random);
    rootCases(cases);
    return cases;
  }

  /** Where a root case's copy of the table root stands: its command runs there. */
  static Path copyRoot(Path dir) {
    return dir.resolve("tables/orders_copy");
  }

  /**
   * Copies of the table root (cp -r) beside it: of the owning root, of a root that was moved, and
   * put at the moved root's old path. A migration or gc through the copy must be refused, naming
   * the owner file, and the original must keep its rows (a migration through a copy would delete
   * segments the original names). Root cases run in every sample.
   */
  private static void rootCases(List<Case> cases) {
    Map<String, List<String>> layouts =
        Map.of(
            "of the owning root", List.of(),
            "of a root moved by hand", List.of("orders_gone"),
            "put at the old path of the moved root", List.of("orders_copy"));
    for (Map.Entry<String, List<String>> layout : layouts.entrySet()) {
      for (String command : List.of("migrate", "gc")) {
        cases.add(
            new Case(
                "table root copied (cp -r), " + layout.getKey() + ", then " + command + " there",
                "root-" + command,
                d -> {
                  Path root = table(d);
                  DevicePool pool = DevicePool.load(devices(d));
                  String id = MosaicTable.open(root, pool).latest().tableId();
                  for (io.mosaic.device.Device device : pool.devices()) {
                    Files.deleteIfExists(device.root().resolve(id).resolve(TableFolders.OWNER));
                  }
                  // The original owns its folders where it first stood, then moved to root.
                  Path first =
                      layout.getValue().isEmpty()
                          ? root
                          : root.resolveSibling(layout.getValue().get(0));
                  Files.move(root, first);
                  TableFolders.adopt(MosaicTable.open(first, pool), previous -> true);
                  Files.move(first, root);
                  copyTree(root, copyRoot(d)); // as cp -r: a new directory
                  return TableFolders.OWNER;
                }));
      }
    }
  }

  private Path relative(Path p) {
    return template.relativize(p);
  }

  private static Path manifestPath(Path dir, long version) {
    return table(dir)
        .resolve(MosaicTable.MANIFESTS)
        .resolve(String.format(Locale.ROOT, "v%020d.json", version));
  }

  /** Truncations, bit flips and overwritten bytes of one file, {@code n} in all. */
  private static void bytesCases(
      List<Case> cases, String kind, Path file, long length, int n, Random random) {
    String name = file.getFileName().toString();
    for (int i = 0; i < n; i++) {
      long at = (long) (random.nextDouble() * length);
      int bit = random.nextInt(8);
      int value = random.nextInt(256);
      switch (i % 4) {
        case 0 ->
            cases.add(
                new Case(
                    kind + " " + name + " truncated to " + at + " bytes",
                    kind,
                    d -> {
                      try (var ch =
                          java.nio.channels.FileChannel.open(
                              d.resolve(file), java.nio.file.StandardOpenOption.WRITE)) {
                        ch.truncate(at);
                      }
                      return name;
                    }));
        case 3 ->
            cases.add(
                new Case(
                    kind + " " + name + " byte " + at + " set to " + value,
                    kind,
                    d -> patch(d.resolve(file), at, b -> (byte) value, name)));
        default ->
            cases.add(
                new Case(
                    kind + " " + name + " bit " + bit + " of byte " + at + " flipped",
                    kind,
                    d -> patch(d.resolve(file), at, b -> (byte) (b ^ (1 << bit)), name)));
      }
    }
  }

  private static String patch(Path file, long at, Function<Byte, Byte> change, String name)
      throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    if (bytes.length > 0) {
      int i = (int) Math.min(at, bytes.length - 1);
      bytes[i] = change.apply(bytes[i]);
    }
    Files.write(file, bytes);
    return name;
  }

  private static String write(Path dir, Path file, byte[] bytes) throws IOException {
    Files.write(dir.resolve(file), bytes);
    return file.getFileName().toString();
  }

  /** Edits of the manifest's body, written back with a correct checksum. */
  private static void semanticCases(
      List<Case> cases, Path file, byte[] bytes, Manifest m, Random random) throws IOException {
    String text = new String(bytes, StandardCharsets.UTF_8);
    String body = text.substring(text.indexOf("\"manifest\":") + 11, text.length() - 2);
    List<Edit> edits = new ArrayList<>();
    int groups = m.rowGroups().size();
    for (int g = 0; g < groups; g++) {
      int gg = g;
      edits.add(new Edit("rowGroups[" + g + "] - 1", o -> inc(rows(o), gg, -1)));
      edits.add(new Edit("rowGroups[" + g + "] + 1", o -> inc(rows(o), gg, 1)));
      edits.add(new Edit("rowGroups[" + g + "] = 0", o -> rows(o).set(gg, 0)));
      edits.add(new Edit("rowGroups[" + g + "] = -5", o -> rows(o).set(gg, -5)));
      edits.add(new Edit("rowGroups[" + g + "] as a string", o -> rows(o).set(gg, "4000")));
      edits.add(new Edit("rowGroups[" + g + "] as a fraction", o -> rows(o).set(gg, 3999.5)));
      edits.add(new Edit("rowGroups[" + g + "] dropped", o -> rows(o).remove(gg)));
    }
    edits.add(new Edit("rowGroups emptied", o -> rows(o).removeAll()));
    edits.add(
        new Edit(
            "rowGroups 0 and 1 merged",
            o -> {
              rows(o).set(0, rows(o).get(0).longValue() + rows(o).get(1).longValue());
              rows(o).remove(1);
            }));
    List<SegmentEntry> segments = m.segments();
    for (int s = 0; s < segments.size(); s++) {
      int ss = s;
      SegmentEntry e = segments.get(s);
      edits.add(
          new Edit(
              "segment " + s + " firstRowGroup + 1",
              o -> incField(seg(o, ss), "firstRowGroup", 1)));
      edits.add(
          new Edit(
              "segment " + s + " firstRowGroup - 1",
              o -> incField(seg(o, ss), "firstRowGroup", -1)));
      edits.add(
          new Edit(
              "segment " + s + " firstRowGroup = -1", o -> seg(o, ss).put("firstRowGroup", -1)));
      edits.add(
          new Edit(
              "segment " + s + " rowGroupCount + 1",
              o -> incField(seg(o, ss), "rowGroupCount", 1)));
      edits.add(
          new Edit("segment " + s + " removed", o -> ((ArrayNode) o.get("segments")).remove(ss)));
      edits.add(
          new Edit("segment " + s + " fileBytes - 1", o -> incField(seg(o, ss), "fileBytes", -1)));
      edits.add(
          new Edit(
              "segment " + s + " checksum changed",
              o -> seg(o, ss).put("checksum", "crc32c:00000000")));
      edits.add(
          new Edit(
              "segment " + s + " codec changed",
              o ->
                  seg(o, ss).put("codec", e.codec().configName().equals("zstd") ? "lz4" : "zstd")));
      edits.add(
          new Edit(
              "segment " + s + " on another device",
              o -> seg(o, ss).put("device", e.device().equals("nvme") ? "ssd" : "nvme")));
      edits.add(
          new Edit(
              "segment " + s + " on an unknown device", o -> seg(o, ss).put("device", "tape")));
      edits.add(
          new Edit("segment " + s + " path ./", o -> seg(o, ss).put("path", "./" + e.path())));
      edits.add(
          new Edit(
              "segment " + s + " path //",
              o -> seg(o, ss).put("path", e.path().replace("/", "//"))));
      edits.add(
          new Edit(
              "segment " + s + " path x/../", o -> seg(o, ss).put("path", "x/../" + e.path())));
      edits.add(
          new Edit("segment " + s + " path absolute", o -> seg(o, ss).put("path", "/" + e.path())));
      edits.add(
          new Edit(
              "segment " + s + " path outside", o -> seg(o, ss).put("path", "../../" + e.path())));
      SegmentEntry other =
          segments.get((s + 1 + random.nextInt(segments.size() - 1)) % segments.size());
      edits.add(
          new Edit(
              "segment " + s + " path of column " + other.column() + "'s file",
              o -> seg(o, ss).put("path", other.path()).put("device", other.device())));
      edits.add(
          new Edit(
              "segment " + s + " stats dropped",
              o -> ((ArrayNode) seg(o, ss).get("stats")).remove(0)));
      edits.add(
          new Edit("segment " + s + " column renamed", o -> seg(o, ss).put("column", "nope")));
    }
    List<ColumnSpec> columns = m.schema().columns();
    for (int c = 0; c < columns.size(); c++) {
      int cc = c;
      String type = columns.get(c).type().toString();
      for (String to :
          List.of(
              "int32",
              "int64",
              "double",
              "date",
              "string",
              "decimal(12,3)",
              "decimal(12,2)",
              "int8",
              "blob")) {
        if (!to.equals(type)) {
          edits.add(
              new Edit(
                  "column " + c + " type " + type + " -> " + to,
                  o -> ((ObjectNode) o.get("schema").get(cc)).put("type", to)));
        }
      }
      String name = columns.get(c).name();
      String next = columns.get((c + 1) % columns.size()).name();
      edits.add(
          new Edit(
              "columns " + name + " and " + next + " swapped in the schema",
              o -> {
                ((ObjectNode) o.get("schema").get(cc)).put("name", next);
                ((ObjectNode) o.get("schema").get((cc + 1) % columns.size())).put("name", name);
              }));
      edits.add(
          new Edit(
              "every segment of " + name + " removed",
              o -> {
                ArrayNode all = (ArrayNode) o.get("segments");
                for (int i = all.size() - 1; i >= 0; i--) {
                  if (all.get(i).get("column").textValue().equals(name)) {
                    all.remove(i);
                  }
                }
              }));
      edits.add(
          new Edit(
              "column " + name + " duplicated",
              o -> ((ArrayNode) o.get("schema")).add(o.get("schema").get(cc).deepCopy())));
    }
    edits.add(new Edit("tableId ..", o -> o.put("tableId", "..")));
    edits.add(new Edit("tableId ../mid", o -> o.put("tableId", "../mid")));
    edits.add(new Edit("version 0", o -> o.put("version", 0)));
    edits.add(new Edit("schema missing", o -> o.remove("schema")));
    edits.add(new Edit("segments not an array", o -> o.put("segments", "none")));
    for (Edit edit : edits) {
      cases.add(edited("manifest-semantic", file, body, edit));
    }
    exchangeCases(cases, file, body, m);
  }

  private static Case edited(String kind, Path file, String body, Edit edit) {
    return new Case(
        "manifest edited with a valid checksum: " + edit.name,
        kind,
        d -> {
          ObjectNode o = (ObjectNode) JSON.readTree(body);
          edit.change.accept(o);
          byte[] newBody = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(o);
          CRC32C crc = new CRC32C();
          crc.update(newBody);
          String head =
              "{\"format\":\"mosaic-manifest\",\"formatVersion\":1,\"crc32c\":\""
                  + String.format(Locale.ROOT, "%08x", crc.getValue())
                  + "\",\"manifest\":";
          byte[] out = new byte[head.length() + newBody.length + 2];
          System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, out, 0, head.length());
          System.arraycopy(newBody, 0, out, head.length(), newBody.length);
          out[out.length - 2] = '}';
          out[out.length - 1] = '\n';
          return write(d, file, out);
        });
  }

  /** The kind of the cases that {@link #check} follows with {@code gc --grace PT0S}. */
  static final String EXCHANGE = "manifest-exchange";

  /**
   * Segments exchanging what places them (row groups, devices, paths; two columns' segments their
   * columns) and a segment named on a device where its file is not: each manifest keeps a valid
   * checksum and passes the checks on load. The CLI's gc runs after each; it must delete none of
   * the table's segment files.
   */
  private static void exchangeCases(List<Case> cases, Path file, String body, Manifest m) {
    List<Edit> edits = new ArrayList<>();
    List<String> names = columns(m);
    for (int c = 0; c < names.size(); c++) {
      List<Integer> mine = new ArrayList<>();
      for (int i = 0; i < m.segments().size(); i++) {
        if (m.segments().get(i).column().equals(names.get(c))) {
          mine.add(i);
        }
      }
      int a = mine.get(0);
      int b = mine.get(1);
      String label = names.get(c) + "'s segments " + a + " and " + b + " exchange ";
      List<List<String>> exchanges =
          c % 3 == 0
              ? List.of(List.of("firstRowGroup"), List.of("device"), List.of("path"))
              : List.of(List.of("firstRowGroup"));
      for (List<String> fields : exchanges) {
        edits.add(new Edit(label + String.join(" and ", fields), o -> exchange(o, a, b, fields)));
      }
      SegmentEntry e = m.segments().get(b);
      String wrong = e.device().equals("hdd") ? "ssd" : "hdd";
      edits.add(
          new Edit(
              "segment " + b + " named on device '" + wrong + "', its file on '" + e.device() + "'",
              o -> seg(o, b).put("device", wrong)));
      if (c + 1 < names.size() && c % 3 == 0) {
        int other = m.segments().indexOf(m.segmentFor(names.get(c + 1), 0));
        int mineFirst = m.segments().indexOf(m.segmentFor(names.get(c), 0));
        edits.add(
            new Edit(
                "segments " + mineFirst + " and " + other + " (two columns) exchange column",
                o -> exchange(o, mineFirst, other, List.of("column"))));
      }
    }
    for (Edit edit : edits) {
      cases.add(edited(EXCHANGE, file, body, edit));
    }
  }

  private static void exchange(ObjectNode o, int a, int b, List<String> fields) {
    for (String f : fields) {
      com.fasterxml.jackson.databind.JsonNode x = seg(o, a).get(f);
      seg(o, a).set(f, seg(o, b).get(f));
      seg(o, b).set(f, x);
    }
  }

  private record Edit(String name, java.util.function.Consumer<ObjectNode> change) {}

  private static ArrayNode rows(ObjectNode o) {
    return (ArrayNode) o.get("rowGroups");
  }

  private static ObjectNode seg(ObjectNode o, int s) {
    return (ObjectNode) o.get("segments").get(s);
  }

  private static void inc(ArrayNode a, int i, long by) {
    a.set(i, a.get(i).longValue() + by);
  }

  private static void incField(ObjectNode o, String field, long by) {
    o.put(field, o.get(field).longValue() + by);
  }

  private void segmentCases(List<Case> cases, Manifest m, Random random) throws IOException {
    DevicePool pool = DevicePool.load(devices(template));
    List<Path> files = new ArrayList<>();
    for (SegmentEntry s : m.segments()) {
      files.add(relative(pool.device(s.device()).resolve(s.path()).toAbsolutePath().normalize()));
    }
    for (int i = 0; i < files.size(); i++) {
      Path file = files.get(i);
      String name = file.getFileName().toString();
      long length = Files.size(template.resolve(file));
      bytesCases(cases, "segment", file, length, 14, random);
      cases.add(
          new Case("segment " + name + " emptied", "segment", d -> write(d, file, new byte[0])));
      cases.add(
          new Case(
              "segment " + name + " deleted",
              "segment",
              d -> {
                Files.delete(d.resolve(file));
                return name;
              }));
      Path other = files.get((i + 1 + random.nextInt(files.size() - 1)) % files.size());
      cases.add(
          new Case(
              "segment " + name + " replaced by " + other.getFileName(),
              "segment",
              d -> {
                Files.copy(d.resolve(other), d.resolve(file), StandardCopyOption.REPLACE_EXISTING);
                return name;
              }));
    }
  }

  private void traceCases(List<Case> cases, Random random) throws IOException {
    List<Path> traces;
    try (Stream<Path> walk = Files.walk(table(template).resolve("_trace"))) {
      traces = walk.filter(Files::isRegularFile).map(this::relative).toList();
    }
    for (Path file : traces) {
      String name = file.getFileName().toString();
      bytesCases(cases, "trace", file, Files.size(template.resolve(file)), 100, random);
      cases.add(new Case("trace " + name + " emptied", "trace", d -> write(d, file, new byte[0])));
      cases.add(
          new Case(
              "trace " + name + " with a garbage line",
              "trace",
              d -> {
                Files.writeString(
                    d.resolve(file),
                    "{\"not\": \"a record\"}\n",
                    java.nio.file.StandardOpenOption.APPEND);
                return name;
              }));
    }
  }

  private void devicesCases(List<Case> cases, Random random) throws IOException {
    Path file = Path.of("devices.toml");
    bytesCases(cases, "devices", file, Files.size(devices(template)), 150, random);
    List<String> lines = Files.readAllLines(devices(template));
    for (int i = 0; i < lines.size(); i++) {
      int ii = i;
      if (lines.get(i).isBlank()) {
        continue;
      }
      cases.add(
          new Case(
              "devices.toml without line " + (i + 1) + " (" + lines.get(i) + ")",
              "devices",
              d -> {
                List<String> copy = new ArrayList<>(lines);
                copy.remove(ii);
                Files.write(d.resolve(file), copy);
                return "devices.toml";
              }));
    }
  }

  // ---- running a case

  /**
   * Runs {@code cases} through {@code frontEnd}, each on a fresh damaged copy in a directory of its
   * own under {@code work} (an engine keeps a device pool per {@code devices.toml} path), which is
   * removed once {@code done} has released what the front end kept for it.
   */
  public Tally runAll(List<Case> cases, Path work, FrontEnd frontEnd, Consumer<Path> done)
      throws Exception {
    Tally tally = new Tally();
    ExecutorService pool = daemonPool();
    try {
      for (int i = 0; i < cases.size(); i++) {
        Path dir = work.resolve("case" + i);
        tally.add(run(cases.get(i), dir, pool, frontEnd));
        done.accept(dir);
        deleteTree(dir);
      }
    } finally {
      pool.shutdownNow();
    }
    return tally;
  }

  /**
   * What {@code read} gives on an undamaged copy of the template in {@code work}, without the
   * cases' time limit: an engine's first queries also warm it up.
   */
  public <T> T undamaged(Path work, Function<Path, T> read) throws IOException {
    deleteTree(work);
    copyTree(template, work);
    return read.apply(work);
  }

  /** A query's rows as text, in an order of their own, or its failure. */
  public interface Query {
    List<String> rows(int query) throws Exception;
  }

  /**
   * A case read by an engine: {@code rows} when every query gives the undamaged table's rows
   * ({@code expected}, one list per query), {@code wrong} when one gives others, else what {@code
   * refused} makes of the first failure.
   */
  public static Outcome read(
      Case c, List<List<String>> expected, Query query, Function<Exception, Outcome> refused) {
    for (int q = 0; q < expected.size(); q++) {
      List<String> got;
      try {
        got = query.rows(q);
      } catch (Exception e) {
        return refused.apply(e);
      }
      if (!got.equals(expected.get(q))) {
        return new Outcome(c, "wrong", "query " + q + ": " + got.size() + " rows");
      }
    }
    return new Outcome(c, "rows", "");
  }

  /**
   * An engine's error for case {@code c} on the copy in {@code dir}: clear ({@code error}) when the
   * message holds no stack trace or Java class name and names the damaged file.
   */
  public static Outcome refusal(Case c, Path dir, String file, String message) {
    String why = unclear(message);
    if (why != null) {
      return new Outcome(c, "unclear", why + ": " + message);
    }
    if (!names(message, file, dir)) {
      return new Outcome(c, "unnamed", message);
    }
    return new Outcome(c, "error", message);
  }

  /**
   * Runs {@code c} through {@code frontEnd} on a fresh damaged copy of the template in {@code
   * work}, within {@link #SCAN_LIMIT_SECONDS}.
   */
  public Outcome run(Case c, Path work, ExecutorService pool, FrontEnd frontEnd) throws Exception {
    deleteTree(work);
    copyTree(template, work);
    String file = c.damage().apply(work);
    Future<Outcome> f = pool.submit(() -> frontEnd.check(c, work, file));
    try {
      return f.get(SCAN_LIMIT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      return new Outcome(c, "hang", "no answer within " + SCAN_LIMIT_SECONDS + " s");
    }
  }

  /** The CLI's front end: {@code mosaic table} (or {@code trace}), then a scan. */
  Outcome cli(Case c, Path dir, String file) {
    // The CLI: a damaged input is a message naming the file (devices.toml's lists every problem,
    // a line each), exit status 1; never a stack trace.
    String[] command =
        c.kind().startsWith("root-")
            ? new String[] {
              c.kind().substring("root-".length()),
              c.kind().equals("root-gc") ? "--grace=PT0S" : "--set=o_comment=hdd",
              "--devices",
              devices(dir).toString(),
              "--table",
              copyRoot(dir).toString()
            }
            : c.kind().equals("trace")
                ? new String[] {
                  "trace", "--devices", devices(dir).toString(), "--table", table(dir).toString()
                }
                : new String[] {
                  "table", "--devices", devices(dir).toString(), "--table", table(dir).toString()
                };
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status;
    try {
      status = MosaicCli.run(command, new PrintWriter(out, true), new PrintWriter(err, true));
    } catch (RuntimeException | Error e) {
      return new Outcome(c, "cli-crash", e.toString());
    }
    String error = err.toString().trim();
    if (c.kind().equals(EXCHANGE)) {
      Outcome gc = collect(c, dir, file);
      if (gc != null) {
        return gc;
      }
    }
    if (status != 0) {
      if (!kindExitCode(status) || error.contains("\tat ")) {
        return new Outcome(c, "cli-unclear", "exit " + status + ": " + error);
      }
      if (!names(error, file, dir)) {
        return new Outcome(c, "cli-unnamed", error);
      }
    }
    // A scan: the committed rows, or an error naming the file.
    try (Retriever retriever = new Retriever(DevicePool.load(devices(dir)), 1, 0)) {
      MosaicTable table = MosaicTable.open(table(dir), retriever.pool());
      long[] got = digest(table, retriever);
      if (got[0] == expectedRows && got[1] == expectedDigest) {
        // The rows are right; the CLI may still have refused the damaged file (named above).
        return status == 0 ? new Outcome(c, "rows", "") : new Outcome(c, "error", error);
      }
      return new Outcome(c, "wrong", got[0] + " rows, digest " + got[1]);
    } catch (RuntimeException e) {
      String message = String.valueOf(e.getMessage());
      if (!names(message, file, dir)) {
        return new Outcome(c, "scan-unnamed", e.toString());
      }
      return new Outcome(c, "error", message);
    } catch (Error e) {
      return new Outcome(c, "scan-crash", e.toString());
    }
  }

  /**
   * Runs {@code gc --grace PT0S} through the CLI: it may collect or refuse with a clear error
   * naming the manifest or a segment, but must keep every segment file of the table's true version.
   * Null when it did; else the outcome that says what went wrong.
   */
  private Outcome collect(Case c, Path dir, String file) {
    // The case is a copy of the template (cp): its folders' owner files name the template, and gc
    // would refuse it as a copy before it looked at the manifest. Make the case the owner.
    try (Stream<Path> walk = Files.walk(dir.resolve("pool"))) {
      for (Path owner :
          walk.filter(p -> p.getFileName().toString().equals(TableFolders.OWNER)).toList()) {
        Files.writeString(owner, table(dir).toRealPath() + "\n");
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] command = {
      "gc",
      "--devices",
      devices(dir).toString(),
      "--table",
      table(dir).toString(),
      "--grace",
      "PT0S"
    };
    int status;
    try {
      status = MosaicCli.run(command, new PrintWriter(out, true), new PrintWriter(err, true));
    } catch (RuntimeException | Error e) {
      return new Outcome(c, "gc-crash", e.toString());
    }
    String error = err.toString().trim();
    if (status != 0
        && (!kindExitCode(status)
            || error.contains("\tat ")
            || !(names(error, file, dir) || error.contains(".parquet")))) {
      return new Outcome(c, "gc-unclear", "exit " + status + ": " + error);
    }
    try (Stream<Path> walk = Files.walk(template.resolve("pool"))) {
      for (Path f : walk.filter(p -> p.toString().endsWith(".parquet")).toList()) {
        if (!Files.exists(dir.resolve(template.relativize(f).toString()))) {
          return new Outcome(c, "gc-deleted", f.getFileName() + " (gc said: " + out + error + ")");
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return null;
  }

  /**
   * Whether an error names the damaged file: by name, a manifest also as "manifest v<N>", and
   * devices.toml also by the device it broke.
   */
  public static boolean names(String message, String file, Path dir) {
    Matcher manifest = MANIFEST_FILE.matcher(file);
    return message.contains(file)
        || (manifest.matches()
            && Pattern.compile("manifest v" + Long.parseLong(manifest.group(1)) + "\\b")
                .matcher(message)
                .find())
        || (file.equals("devices.toml") && message.contains("device"));
  }

  /**
   * Why an error message is not clear to a user, or null when it is: a stack trace, or the bare
   * name of a Java exception class instead of what failed.
   */
  public static String unclear(String message) {
    if (message.contains("\tat ")) {
      return "a stack trace";
    }
    Matcher name = JAVA_EXCEPTION.matcher(message);
    return name.find() ? "the Java class name " + name.group() : null;
  }

  private static final Pattern JAVA_EXCEPTION =
      Pattern.compile(
          "\\b(?:java|javax|jdk|sun|io\\.mosaic|org|com)\\.[\\w.$]+(?:Exception|Error)\\b");

  private static final Pattern MANIFEST_FILE = Pattern.compile("v(\\d{20})\\.json");

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  public static ExecutorService daemonPool() {
    return Executors.newCachedThreadPool(
        r -> {
          Thread t = new Thread(r, "corpus-case");
          t.setDaemon(true);
          return t;
        });
  }
}
