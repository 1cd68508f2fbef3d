package io.mosaic.bench.os;

import io.mosaic.MosaicException;
import io.mosaic.config.ByteSize;
import io.mosaic.config.DeviceConfigParser;
import io.mosaic.config.DeviceSpec;
import io.mosaic.config.Emulation;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.tomlj.Toml;

/**
 * The Java half of {@code benchmarks/os-pool} (docs/os-devices.md): reads {@code devices.toml} with
 * core's own parser, so the script never parses TOML or units itself, and times random reads the
 * way a JVM issues them.
 *
 * <pre>
 * list DEVICES_TOML          one line per device: id, absolute path, emulated read bytes/s (0: none),
 *                            emulated seek ns (0: none), capacity bytes; tab-separated
 * bytes SIZE                 a size in Mosaic's units ("2 GB", "512 MiB") as bytes
 * unthrottled IN OUT         writes OUT: the pool of IN with every emulate removed, paths absolute
 * random-reads FILE COUNT    COUNT positioned 4 KiB reads at distinct random 4 KiB-aligned offsets
 * </pre>
 */
public final class PoolDevices {
  static final int PAGE = 4096;

  private PoolDevices() {}

  public static void main(String[] args) {
    try {
      run(args);
    } catch (MosaicException e) {
      System.err.println("os-pool: " + e.getMessage());
      System.exit(1);
    } catch (IOException e) {
      System.err.println("os-pool: " + e);
      System.exit(1);
    }
  }

  private static void run(String[] args) throws IOException {
    String command = args.length > 0 ? args[0] : "";
    switch (command) {
      case "list" -> {
        need(args, 2);
        System.out.print(list(DeviceConfigParser.parsePool(Path.of(args[1]))));
      }
      case "bytes" -> {
        need(args, 2);
        System.out.println(ByteSize.parse(args[1]).bytes());
      }
      case "unthrottled" -> {
        need(args, 3);
        Path in = Path.of(args[1]).toAbsolutePath();
        Path out = Path.of(args[2]).toAbsolutePath();
        Files.writeString(out, unthrottled(in, DeviceConfigParser.parsePool(in)));
        // Read back with the same parser: what Mosaic will load must be a valid pool.
        DeviceConfigParser.parsePool(out);
      }
      case "random-reads" -> {
        need(args, 3);
        RandomReads r = randomReads(Path.of(args[1]), Integer.parseInt(args[2]));
        System.out.printf(
            Locale.ROOT,
            "%d\t%.0f\t%.0f\t%.0f%n",
            r.count(),
            r.totalNanos() / 1.0,
            r.meanNanos(),
            r.medianNanos());
      }
      default -> {
        System.err.println(
            "usage: PoolDevices list DEVICES_TOML | bytes SIZE | unthrottled IN OUT"
                + " | random-reads FILE COUNT");
        System.exit(2);
      }
    }
  }

  private static void need(String[] args, int n) {
    if (args.length != n) {
      throw MosaicException.invalid(
          "PoolDevices "
              + args[0]
              + " takes "
              + (n - 1)
              + " argument(s), got "
              + (args.length - 1));
    }
  }

  /** The script's view of a pool: one tab-separated line per device, in file order. */
  static String list(List<DeviceSpec> pool) {
    StringBuilder out = new StringBuilder();
    for (DeviceSpec d : pool) {
      Emulation e = d.emulation().orElse(null);
      out.append(d.id())
          .append('\t')
          .append(d.path().toAbsolutePath())
          .append('\t')
          .append(e == null ? 0 : Math.round(e.read().bytesPerSecond()))
          .append('\t')
          .append(e == null ? 0 : e.seek().nanos())
          .append('\t')
          .append(d.capacity().bytes())
          .append('\n');
    }
    return out.toString();
  }

  /**
   * The same pool as TOML without {@code emulate}: the OS throttles the devices, so Mosaic's own
   * throttle must be off or reads would be paced twice. Values are written in exact units (bytes,
   * cents, nanoseconds) so nothing is rounded on the way.
   */
  static String unthrottled(Path source, List<DeviceSpec> pool) {
    StringBuilder out = new StringBuilder();
    out.append("# Written by benchmarks/os-pool up from ")
        .append(source)
        .append(":\n# the same pool without emulate (the OS throttles these devices,")
        .append(" docs/os-devices.md).\n");
    for (DeviceSpec d : pool) {
      out.append("\n[[device]]\n");
      out.append("id = \"").append(Toml.tomlEscape(d.id())).append("\"\n");
      out.append("name = \"").append(Toml.tomlEscape(d.name())).append("\"\n");
      out.append("path = \"")
          .append(Toml.tomlEscape(d.path().toAbsolutePath().toString()))
          .append("\"\n");
      out.append("capacity = \"").append(d.capacity().bytes()).append(" B\"\n");
      out.append("threads = ").append(d.threads()).append('\n');
      out.append("codec = \"").append(d.codec().name().toLowerCase(Locale.ROOT)).append("\"\n");
      out.append("cost_per_gb = \"")
          .append(BigDecimal.valueOf(d.costPerGb().cents()).stripTrailingZeros().toPlainString())
          .append(" ct\"\n");
      out.append("seek = \"").append(d.seek().nanos()).append(" ns\"\n");
      if (d.metadata()) {
        out.append("metadata = true\n");
      }
    }
    return out.toString();
  }

  /** Timings of {@link #randomReads}: wall time of all reads, and per read. */
  record RandomReads(int count, long totalNanos, double meanNanos, double medianNanos) {}

  /**
   * Reads {@code count} pages of 4 KiB at distinct random page offsets of {@code file} with
   * positioned reads (as Parquet readers do), so each is a small random read the kernel reads as
   * is, without read-ahead.
   */
  static RandomReads randomReads(Path file, int count) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long pages = ch.size() / PAGE;
      if (count < 1 || count > pages / 2) {
        throw MosaicException.invalid(
            "random-reads: "
                + count
                + " reads of distinct pages need a file of at least "
                + 2L * count * PAGE
                + " bytes; "
                + file
                + " has "
                + ch.size()
                + "; read fewer pages or write a larger file");
      }
      long[] offsets = new SplittableRandom().longs(0, pages).distinct().limit(count).toArray();
      ByteBuffer buf = ByteBuffer.allocateDirect(PAGE);
      long[] each = new long[count];
      long start = System.nanoTime();
      for (int i = 0; i < count; i++) {
        buf.clear();
        long t = System.nanoTime();
        while (buf.hasRemaining() && ch.read(buf, offsets[i] * PAGE + buf.position()) > 0) {}
        each[i] = System.nanoTime() - t;
      }
      long total = System.nanoTime() - start;
      Arrays.sort(each);
      double median =
          count % 2 == 1 ? each[count / 2] : (each[count / 2 - 1] + each[count / 2]) / 2.0;
      return new RandomReads(count, total, (double) total / count, median);
    }
  }
}
