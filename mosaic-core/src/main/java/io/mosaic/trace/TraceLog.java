package io.mosaic.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mosaic.config.MetadataFiles;
import io.mosaic.storage.Storage;
import io.mosaic.storage.StorageKeys;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A table's trace: {@code <table>/_trace/epoch-<n>/<host>-<pid>-<uuid>.jsonl}, one JSON line per
 * scan, or per split of a planned engine scan ({@link TraceFragment}, merged into one record when
 * read). Each process appends only to its own file, so scans from several JVMs never interleave
 * within a line; a new epoch starts after each placement (Section 3.4). The format is in
 * docs/format.md, "Trace".
 */
public final class TraceLog {
  private static final ObjectMapper JSON = new ObjectMapper();
  // Every TraceLog of this JVM appends to the same per-process file: one lock for all of them keeps
  // lines whole without relying on O_APPEND being atomic (it is not on NFS).
  private static final Object APPEND_LOCK = new Object();
  private static final Pattern EPOCH = Pattern.compile("epoch-(\\d+)");
  // Per trace directory, the epoch this JVM last appended to (see appendEpoch); under APPEND_LOCK.
  private static final Map<Path, Integer> APPEND_EPOCHS = new java.util.HashMap<>();
  // Records this JVM wrote to traces on storage without appends: their files' sequence numbers.
  private static final java.util.concurrent.atomic.AtomicLong RECORDS =
      new java.util.concurrent.atomic.AtomicLong();
  private static final String PROCESS =
      host()
          + "-"
          + ProcessHandle.current().pid()
          + "-"
          + UUID.randomUUID().toString().substring(0, 8);

  private final Path dir; // on local files
  private final Storage storage; // elsewhere: one file per record (no appends)
  private final String key;
  private final String where;

  public TraceLog(Path tableRoot) {
    this.dir = tableRoot.resolve("_trace");
    this.storage = null;
    this.key = null;
    this.where = dir.toString();
  }

  private TraceLog(Storage storage, String prefix, String location) {
    this.dir = null;
    this.storage = storage;
    this.key = StorageKeys.join(prefix, "_trace");
    this.where = location + "/_trace";
  }

  /**
   * The trace of {@code table}: in its root directory, or, for a lock-free table, on its storage,
   * where each record is a file of its own, since such storage has no appends (docs/format.md,
   * "Commits without POSIX locks").
   */
  public static TraceLog of(MosaicTable table) {
    return table.lockFree()
        ? new TraceLog(table.log().storage(), table.log().prefix(), table.location())
        : new TraceLog(table.root());
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9_.-]", "_");
    } catch (IOException e) {
      return "host";
    }
  }

  /** Where the trace lives, for messages and to tell two tables' traces apart. */
  String where() {
    return where;
  }

  /** The current epoch (1 until a new one is started). */
  public int epoch() {
    int epoch = 1;
    if (storage != null) {
      try {
        for (Storage.FileStatus f : storage.list(key)) {
          Matcher m = EPOCH.matcher(f.name());
          if (f.folder() && m.matches()) {
            epoch = Math.max(epoch, Integer.parseInt(m.group(1)));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the trace " + where, e);
      }
      return epoch;
    }
    if (Files.isDirectory(dir)) {
      try (Stream<Path> list = Files.list(dir)) {
        for (Path p : list.toList()) {
          Matcher m = EPOCH.matcher(p.getFileName().toString());
          if (m.matches()) {
            epoch = Math.max(epoch, Integer.parseInt(m.group(1)));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the trace of " + dir.getParent(), e);
      }
    }
    return epoch;
  }

  /** Starts a new epoch: later scans are recorded there. Returns its number. */
  public int newEpoch() {
    int next = epoch() + 1;
    try {
      if (storage != null) {
        // a folder exists once it holds a file: an empty marker, which read skips (hidden)
        storage.create(epochKey(next) + "/.epoch").close();
        return next;
      }
      Files.createDirectories(dir.resolve("epoch-" + next));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start a new trace epoch in " + dir, e);
    }
    return next;
  }

  /**
   * Appends what one scan read: a fragment of engine scan {@code scanId} (one split of a plan,
   * merged with its other splits on {@link #read}), or, without a scan id, a whole record.
   */
  public void appendScan(
      String scanId,
      int fromRowGroup,
      int toRowGroup,
      String queryId,
      String table,
      List<String> columns,
      List<Integer> rowGroupsRead,
      Map<String, Long> bytesPerDevice,
      Instant startedAt,
      long elapsedMillis) {
    Instant end = Instant.now();
    if (scanId != null) {
      append(
          new TraceFragment(
              scanId,
              fromRowGroup,
              toRowGroup,
              queryId,
              table,
              columns,
              rowGroupsRead,
              bytesPerDevice,
              startedAt,
              end));
    } else {
      append(
          new TraceRecord(
              queryId, table, columns, rowGroupsRead, bytesPerDevice, elapsedMillis, end));
    }
  }

  /** Appends a whole scan's record to this process's file of the current epoch, as one write. */
  public void append(TraceRecord r) {
    write(
        line(
            r.queryId(),
            r.table(),
            r.columns(),
            r.rowGroups(),
            r.bytesPerDevice(),
            r.elapsedMillis(),
            r.at()));
  }

  /**
   * Appends one split's fragment of a planned scan: a record line (its own elapsed time, {@code at}
   * its end) plus {@code scanId} and {@code start}, by which {@link #read} merges it.
   */
  public void append(TraceFragment f) {
    ObjectNode o =
        line(
            f.queryId(),
            f.table(),
            f.columns(),
            f.rowGroups(),
            f.bytesPerDevice(),
            Math.max(0, Duration.between(f.start(), f.end()).toMillis()),
            f.end());
    o.put("scanId", f.scanId());
    o.putArray("split").add(f.fromRowGroup()).add(f.toRowGroup());
    o.put("start", f.start().toString());
    write(o);
  }

  /**
   * Appends an engine query's own time, from its start to its end as the engine saw them, under the
   * query id its scans carry: the time the scans do not explain, which a prediction of the query's
   * time adds to its predicted scans (docs/cost-model.md, "Predicted query time").
   */
  public void appendQuery(String queryId, long elapsedMillis) {
    ObjectNode o = JSON.createObjectNode();
    o.put("queryId", queryId);
    o.put("queryMillis", Math.max(0, elapsedMillis));
    o.put("at", Instant.now().toString());
    write(o);
  }

  private static ObjectNode line(
      String queryId,
      String table,
      List<String> columns,
      List<Integer> rowGroups,
      Map<String, Long> bytesPerDevice,
      long elapsedMillis,
      Instant at) {
    ObjectNode o = JSON.createObjectNode();
    o.put("queryId", queryId);
    o.put("table", table);
    columns.forEach(o.putArray("columns")::add);
    var groups = o.putArray("rowGroups");
    rowGroups.forEach(groups::add);
    ObjectNode bytes = o.putObject("bytesPerDevice");
    bytesPerDevice.forEach(bytes::put);
    o.put("elapsedMillis", elapsedMillis);
    o.put("at", at.toString());
    return o;
  }

  private String epochKey(int epoch) {
    return key + "/epoch-" + epoch;
  }

  private void write(ObjectNode o) {
    byte[] line = (o.toString() + "\n").getBytes(StandardCharsets.UTF_8);
    if (storage != null) {
      String file = epochKey(epoch()) + "/" + PROCESS + "-" + RECORDS.incrementAndGet() + ".jsonl";
      try {
        storage.createExclusive(file, line);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write to the trace " + where + "/" + file, e);
      }
      return;
    }
    synchronized (APPEND_LOCK) {
      int epoch = appendEpoch();
      Path file = dir.resolve("epoch-" + epoch).resolve(PROCESS + ".jsonl");
      try {
        try (FileChannel ch = open(file)) {
          ByteBuffer buf = ByteBuffer.wrap(line);
          while (buf.hasRemaining()) {
            ch.write(buf);
          }
        }
        APPEND_EPOCHS.put(dir, epoch);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot append to the trace " + file, e);
      }
    }
  }

  private static FileChannel open(Path file) throws IOException {
    try {
      return FileChannel.open(
          file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    } catch (NoSuchFileException e) {
      Files.createDirectories(file.getParent()); // the epoch's first record
      return FileChannel.open(
          file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }
  }

  /**
   * The current epoch, as {@link #epoch()} gives it, for an append: the epoch this JVM last
   * appended to in this trace while its directory still exists and the next one does not (epochs
   * are only ever added as the newest plus one, by {@link #newEpoch}), else listed anew. Two {@code
   * stat}s instead of listing the trace directory on every scan, a fixed cost each scan paid
   * (docs/benchmarks.md, "Fixed cost per scan").
   */
  private int appendEpoch() {
    Integer last = APPEND_EPOCHS.get(dir);
    if (last != null
        && Files.isDirectory(dir.resolve("epoch-" + last))
        && !Files.exists(dir.resolve("epoch-" + (last + 1)))) {
      return last;
    }
    return epoch();
  }

  /**
   * Every record of an epoch, from all processes' files, in file and line order; the fragments of
   * one planned scan, wherever they were written, become one record ({@link TraceFragment#merge})
   * at the place of the first. Each process appends to its own file, so only a file's last line can
   * be torn by a crash (no newline after it): that line is skipped. Any other line that is not a
   * record means the file was damaged, and is an error naming the file and line. A file larger than
   * {@value #MAX_FILE_MIB} MiB is refused by its size before it is read.
   */
  public List<TraceRecord> read(int epoch) {
    List<TraceRecord> records = new ArrayList<>();
    // A planned scan's fragments, by scan id, and the place in records its merged record takes.
    Map<String, List<TraceFragment>> fragments = new LinkedHashMap<>();
    Map<String, Integer> places = new LinkedHashMap<>();
    readEpoch(
        epoch,
        n -> {
          if (n.has("queryMillis")) {
            return; // a query's own time (queryMillis), not a scan
          }
          if (n.hasNonNull("scanId")) {
            TraceFragment part = parseFragment(n);
            if (!places.containsKey(part.scanId())) {
              places.put(part.scanId(), records.size());
              records.add(null);
            }
            fragments.computeIfAbsent(part.scanId(), k -> new ArrayList<>()).add(part);
          } else {
            records.add(parse(n));
          }
        });
    places.forEach((id, at) -> records.set(at, TraceFragment.merge(fragments.get(id))));
    return records;
  }

  /**
   * The engine queries' own times recorded in an epoch ({@link #appendQuery}), in milliseconds by
   * query id; a query recorded twice (by two tables' traces read into one, or a retried end) keeps
   * its longest time. Damaged and torn lines as {@link #read} treats them.
   */
  public Map<String, Long> queryMillis(int epoch) {
    Map<String, Long> queries = new LinkedHashMap<>();
    readEpoch(
        epoch,
        n -> {
          if (n.has("queryMillis")) {
            queries.merge(
                n.required("queryId").asText(), n.required("queryMillis").asLong(), Math::max);
          }
        });
    return queries;
  }

  /** What {@link #readEpoch} hands on: one line's JSON; throws if the line is not a record. */
  private interface LineReader {
    void accept(JsonNode line) throws IOException;
  }

  /**
   * Calls {@code reader} with every line of an epoch, from all processes' files, in file and line
   * order. A file's last line torn by a crash is skipped; any other line that is not a record is an
   * error naming the file and line, as is a file larger than {@value #MAX_FILE_MIB} MiB.
   */
  private void readEpoch(int epoch, LineReader reader) {
    List<TraceFile> files = files(epoch);
    String epochDir = where + "/epoch-" + epoch;
    String remedy =
        "; move the file out of " + epochDir + " (or start a new trace epoch; docs/format.md)";
    for (TraceFile f : files) {
      try {
        readLines(
            f.open().get(),
            (line, number, terminated) -> {
              try {
                if (line == null) {
                  throw new IOException("longer than any record (" + MAX_LINE + " bytes)");
                }
                reader.accept(JSON.readTree(line));
              } catch (IOException | RuntimeException e) {
                if (terminated) {
                  throw new UncheckedIOException(
                      new IOException(
                          "trace file "
                              + f.name()
                              + " is damaged at line "
                              + number
                              + " ("
                              + e.getMessage()
                              + ")"
                              + remedy,
                          e));
                }
                // the last line, cut short by a crash: it was never a complete record
              }
            });
      } catch (UncheckedIOException e) {
        throw new UncheckedIOException(e.getCause().getMessage(), e.getCause());
      } catch (MetadataFiles.TooLargeException e) {
        throw new UncheckedIOException(
            "cannot read the trace of "
                + where.substring(0, where.length() - "/_trace".length())
                + ": "
                + e.getMessage()
                + remedy,
            e);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot read trace file " + f.name() + ": " + e.getMessage(), e);
      }
    }
  }

  /**
   * A trace file of an epoch: its name (for messages), and how to read it, refused by size first
   * ({@value #MAX_FILE_MIB} MiB).
   */
  private record TraceFile(String name, IoSupplier<java.io.InputStream> open) {}

  private interface IoSupplier<T> {
    T get() throws IOException;
  }

  /** The record files of an epoch, by name. */
  private List<TraceFile> files(int epoch) {
    List<TraceFile> files = new ArrayList<>();
    try {
      if (storage != null) {
        for (Storage.FileStatus f : storage.list(epochKey(epoch))) {
          if (!f.folder() && !f.name().startsWith(".")) {
            files.add(
                new TraceFile(
                    where + "/epoch-" + epoch + "/" + f.name(),
                    () ->
                        new java.io.ByteArrayInputStream(
                            MetadataFiles.read(
                                storage, f.key(), (long) MAX_FILE_MIB << 20, "trace file"))));
          }
        }
        files.sort(java.util.Comparator.comparing(TraceFile::name));
        return files;
      }
      Path epochDir = dir.resolve("epoch-" + epoch);
      if (!Files.isDirectory(epochDir)) {
        return files;
      }
      try (Stream<Path> list = Files.list(epochDir)) {
        for (Path p : list.sorted().toList()) {
          files.add(
              new TraceFile(
                  p.toString(),
                  () -> {
                    MetadataFiles.checkSize(p, (long) MAX_FILE_MIB << 20, "trace file");
                    return Files.newInputStream(p);
                  }));
        }
      }
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the trace in " + where + "/epoch-" + epoch, e);
    }
  }

  /** Largest trace file read, in MiB. */
  static final int MAX_FILE_MIB = 256;

  /** Longest line that can be a record (a record is a few hundred bytes). */
  private static final int MAX_LINE = 1 << 20;

  /** What {@link #readLines} hands on: a line (null if too long), its number, whether it ended. */
  private interface LineAction {
    void accept(String line, int number, boolean terminated);
  }

  /** Calls {@code action} with each non-blank line, never holding more than a record's length. */
  private static void readLines(java.io.InputStream file, LineAction action) throws IOException {
    byte[] buf = new byte[1 << 16];
    java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
    boolean tooLong = false;
    int number = 1;
    try (java.io.InputStream in = file) {
      for (int n = in.read(buf); n > 0; n = in.read(buf)) {
        int start = 0;
        for (int i = 0; i < n; i++) {
          if (buf[i] == '\n') {
            if (!tooLong) {
              line.write(buf, start, i - start);
            }
            emit(line, tooLong, number++, true, action);
            line.reset();
            tooLong = false;
            start = i + 1;
          }
        }
        if (!tooLong) {
          line.write(buf, start, n - start);
          if (line.size() > MAX_LINE) {
            line.reset();
            tooLong = true;
          }
        }
      }
    }
    emit(line, tooLong, number, false, action);
  }

  private static void emit(
      java.io.ByteArrayOutputStream line,
      boolean tooLong,
      int number,
      boolean terminated,
      LineAction action) {
    if (tooLong) {
      action.accept(null, number, terminated);
      return;
    }
    String text = line.toString(StandardCharsets.UTF_8);
    if (!text.isBlank()) {
      action.accept(text, number, terminated);
    }
  }

  private static TraceFragment parseFragment(JsonNode n) {
    TraceRecord r = parse(n);
    JsonNode split = n.required("split");
    return new TraceFragment(
        n.required("scanId").asText(),
        split.required(0).asInt(),
        split.required(1).asInt(),
        r.queryId(),
        r.table(),
        r.columns(),
        r.rowGroups(),
        r.bytesPerDevice(),
        Instant.parse(n.required("start").asText()),
        r.at());
  }

  private static TraceRecord parse(JsonNode n) {
    List<String> columns = new ArrayList<>();
    n.required("columns").forEach(c -> columns.add(c.asText()));
    List<Integer> groups = new ArrayList<>();
    n.required("rowGroups").forEach(g -> groups.add(g.asInt()));
    Map<String, Long> bytes = new LinkedHashMap<>();
    n.required("bytesPerDevice")
        .properties()
        .forEach(e -> bytes.put(e.getKey(), e.getValue().asLong()));
    return new TraceRecord(
        n.required("queryId").asText(),
        n.required("table").asText(),
        columns,
        groups,
        bytes,
        n.required("elapsedMillis").asLong(),
        Instant.parse(n.required("at").asText()));
  }
}
