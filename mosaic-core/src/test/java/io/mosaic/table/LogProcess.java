package io.mosaic.table;

import io.mosaic.storage.Storage;
import io.mosaic.storage.Storages;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;

/**
 * One role of the lock-free commit harness ({@link LogHarness}) in its own JVM, so that it can be
 * killed with SIGKILL anywhere: {@code writer} (appends one small segment per commit), {@code
 * migrator} (rewrites referenced segments into one and commits the swap), {@code gc} (a {@link
 * RetentionGc} pass every second) or {@code reader} (finds the latest version, reads it and opens
 * every file it names). A segment holds record ids, one per line, then {@code end <count>}; a
 * version is the keys of its segments, one per line.
 *
 * <p>Writers and the migrator write an acknowledgement to their own local file, fsynced, only after
 * {@link VersionLog#commit} returned: {@code ACK <version> <record id> <lost versions>} or {@code
 * SWAP <version>}. Readers print {@code MISSING}, {@code WRONG} or {@code LATE} lines for what the
 * harness counts.
 */
public final class LogProcess {
  static final String TABLE = "t";
  static final String DATA = TABLE + "/data";

  private LogProcess() {}

  public static void main(String[] args) throws Exception {
    Storage storage = open(args[0]);
    Path acks = Path.of(args[1]);
    String role = args[2];
    Random random = new Random(Long.parseLong(args[3]));
    VersionLog log = log(storage, Clock.systemUTC());
    switch (role) {
      case "writer" -> writer(log, acks, random);
      case "migrator" -> migrator(log, acks, random);
      case "gc" -> gc(log);
      case "reader" -> reader(log, acks, random);
      default -> throw new IllegalArgumentException("unknown role " + role);
    }
  }

  static VersionLog log(Storage storage, Clock clock) {
    return new VersionLog(storage, TABLE, TABLE, LogHarness.RETENTION, clock);
  }

  /**
   * The storage at {@code uri}, with the Hadoop configuration file the harness names in {@code
   * -Dmosaic.hadoop.conf} (a MiniHdfs's client settings).
   */
  static Storage open(String uri) throws IOException {
    Configuration conf = ChildJvm.hadoopConf();
    return Storages.open(URI.create(uri), conf == null ? new Configuration() : conf);
  }

  static List<String> files(byte[] version) {
    return VersionLogContract.files(version);
  }

  private static String newId(String role) {
    return role.charAt(0) + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }

  private static void writeSegment(Storage storage, String key, List<String> records)
      throws IOException {
    StringBuilder text = new StringBuilder();
    records.forEach(r -> text.append(r).append('\n'));
    text.append("end ").append(records.size()).append('\n');
    try (OutputStream out = storage.create(key)) {
      out.write(text.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The records of a segment; null when it is torn (no end line, or a wrong count). */
  static List<String> readSegment(Storage storage, String key) throws IOException {
    String text = new String(VersionLog.readSmall(storage, key, 64 << 20), StandardCharsets.UTF_8);
    List<String> lines = List.of(text.split("\n"));
    if (lines.isEmpty()
        || !lines.get(lines.size() - 1).equals("end " + (lines.size() - 1))
        || !text.endsWith("\n")) {
      return null;
    }
    return lines.subList(0, lines.size() - 1);
  }

  private static void ack(FileChannel acks, String line) throws IOException {
    acks.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
    acks.force(false);
  }

  private static FileChannel ackFile(Path dir, String id) throws IOException {
    return FileChannel.open(
        dir.resolve(id + ".acks"),
        StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE,
        StandardOpenOption.APPEND);
  }

  private static void writer(VersionLog log, Path ackDir, Random random) throws Exception {
    Storage storage = log.storage();
    while (true) {
      String id = newId("writer");
      try (FileChannel acks = ackFile(ackDir, id);
          Lease lease =
              Lease.acquire(
                  storage, TABLE + "/" + Lease.WRITERS + "/" + id, log.retention(), log.clock())) {
        for (int n = 0; ; n++) {
          String key = DATA + "/" + id + "-" + n;
          String record = id + ":" + n;
          lease.ensureLive();
          writeSegment(storage, key, List.of(record));
          CrashPoints.reached("segment-written");
          VersionLog.Published p =
              log.commit(log.latest(), b -> VersionLogContract.append(b, key), List.of(key), lease);
          ack(acks, "ACK " + p.version().number() + " " + record + " " + join(p.lost()));
          CrashPoints.reached("acked");
          Thread.sleep(random.nextInt(5));
        }
      } catch (TableConflictException e) {
        // The lease expired under a long pause: start again under a new one.
        System.out.println("ERROR " + e.getMessage());
      }
    }
  }

  private static String join(List<Long> versions) {
    return versions.isEmpty() ? "-" : versions.toString().replace(" ", "");
  }

  /** Rewrites up to 32 referenced segments into one and commits the swap, again and again. */
  private static void migrator(VersionLog log, Path ackDir, Random random) throws Exception {
    while (true) {
      try {
        migrate(log, ackDir, random);
      } catch (TableConflictException e) {
        // The lease expired under a long pause: start again under a new one.
        System.out.println("ERROR " + e.getMessage());
      }
    }
  }

  private static void migrate(VersionLog log, Path ackDir, Random random) throws Exception {
    Storage storage = log.storage();
    String id = newId("migrator");
    try (FileChannel acks = ackFile(ackDir, id);
        Lease lease =
            Lease.acquire(
                storage, TABLE + "/" + Lease.WRITERS + "/" + id, log.retention(), log.clock())) {
      for (int n = 0; ; n++) {
        VersionLog.Version base = log.latest();
        List<String> files = new ArrayList<>(files(base.content()));
        Collections.shuffle(files, random);
        List<String> sources = files.subList(0, Math.min(files.size(), 2 + random.nextInt(31)));
        if (sources.size() < 2) {
          Thread.sleep(50);
          continue;
        }
        List<String> records = new ArrayList<>();
        for (String source : sources) {
          records.addAll(readSegment(storage, source));
        }
        String key = DATA + "/" + id + "-" + n;
        lease.ensureLive();
        writeSegment(storage, key, records);
        CrashPoints.reached("segment-rewritten");
        VersionLog.Published p = log.commit(base, b -> swap(b, sources, key), List.of(key), lease);
        ack(acks, "SWAP " + p.version().number() + " " + key + " " + join(p.lost()));
        Thread.sleep(20 + random.nextInt(30));
      }
    }
  }

  private static byte[] swap(VersionLog.Version base, List<String> sources, String merged) {
    Set<String> files = new LinkedHashSet<>(files(base.content()));
    if (!files.containsAll(sources)) {
      throw new TableConflictException(
          "a segment rewritten into " + merged + " was replaced meanwhile");
    }
    files.removeAll(sources);
    files.add(merged);
    return VersionLogContract.lines(files);
  }

  private static void gc(VersionLog log) throws Exception {
    RetentionGc gc = new RetentionGc(log, LogProcess::files, List.of(DATA), log.clock());
    while (true) {
      System.out.println("GC " + gc.collect());
      Thread.sleep(1000);
    }
  }

  /**
   * Finds the latest version, reads every segment it names and checks the records: no record twice,
   * and every record acknowledged at this version or before present. One read in ten holds the
   * version with a reader lease for longer than the retention before reading.
   */
  private static void reader(VersionLog log, Path ackDir, Random random) throws Exception {
    Acks acks = new Acks(ackDir);
    long retention = log.retention().versions().toMillis() - log.retention().skew().toMillis();
    while (true) {
      VersionLog.Version v = log.latest();
      Lease pin = null;
      if (random.nextInt(10) == 0) {
        pin = log.pin(v.number());
        long until = System.currentTimeMillis() + retention + 2000;
        while (System.currentTimeMillis() < until) {
          Thread.sleep(200);
          pin.ensureLive();
        }
      }
      Set<String> records = new HashSet<>();
      String wrong = null;
      for (String key : files(v.content())) {
        List<String> segment;
        try {
          segment = readSegment(log.storage(), key);
        } catch (NoSuchFileException e) {
          long age = System.currentTimeMillis() - v.readAtMillis();
          System.out.println(
              (pin != null || age < retention ? "MISSING " : "LATE ")
                  + key
                  + " of v"
                  + v.number()
                  + " read "
                  + age
                  + " ms ago"
                  + (pin != null ? " under a reader lease" : ""));
          wrong = "";
          break;
        }
        if (segment == null) {
          wrong = "segment " + key + " of v" + v.number() + " is torn";
          break;
        }
        for (String r : segment) {
          if (!records.add(r)) {
            wrong = "record " + r + " twice in v" + v.number();
          }
        }
      }
      if (wrong == null) {
        wrong = acks.missingFrom(v.number(), records);
      }
      if (pin != null) {
        pin.close();
      }
      if (wrong != null && !wrong.isEmpty()) {
        System.out.println("WRONG " + wrong);
      } else if (wrong == null) {
        System.out.println(
            "READ " + v.number() + " " + records.size() + (pin != null ? " pinned" : ""));
      }
    }
  }
}
