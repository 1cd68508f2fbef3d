package io.mosaic.calibration;

import io.mosaic.MosaicException;
import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Latency;
import io.mosaic.device.Device;
import io.mosaic.device.DeviceReadChannel;
import io.mosaic.model.DeviceModel;
import io.mosaic.storage.Storage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;
import org.apache.parquet.hadoop.CodecFactory;

/**
 * Measures a device for its model (paper Section 3.1, Figure 3d): writes a sample column there once
 * per codec, reads it back with the device's configured number of reader threads through the
 * device's I/O path, and times random 4 KiB reads for the seek time.
 *
 * <p>Each codec's file is a sequence of independently compressed blocks, so readers take blocks in
 * order from a shared cursor and decompress in parallel, as the retriever does (Section 3.3).
 */
public final class DeviceCalibrator {
  static final int BLOCK = 1 << 20;
  private static final int PROBE = 4096;
  // Bytes each codec decompresses in memory before any device is timed (64 MiB samples: 4 passes).
  private static final long WARM_UP_BYTES = 256L << 20;
  private static final String DIR = ".mosaic-calibration";

  /** Receives progress of a long calibration, for a person at a terminal; silent by default. */
  public interface Listener {
    default void started(Device device, String phase, long totalBytes) {}

    default void advanced(long bytes) {}

    default void finished(Device device, String phase, String result) {}
  }

  /**
   * @param codecs the codecs to measure; {@code none} is always measured, it gives the raw rate
   * @param seekProbes how many random 4 KiB reads estimate the seek time
   */
  public record Options(List<Codec> codecs, int seekProbes) {
    public Options {
      codecs = List.copyOf(codecs);
    }

    public static Options defaults() {
      return new Options(List.of(Codec.values()), 32);
    }
  }

  private final byte[] sample;
  private final Options options;
  private final Listener listener;
  private final Map<Codec, List<byte[]>> blocks = new EnumMap<>(Codec.class);
  // Sum of blockSum over the sample's blocks: what every decompression pass must reproduce.
  private final long expectedChecksum;
  private boolean cacheDropped = true;

  /**
   * @param sample the column data to write and read back (its contents decide the compression
   *     ratios, so give it realistic data)
   */
  public DeviceCalibrator(byte[] sample, Options options, Listener listener) {
    this.sample = sample;
    this.options = options;
    this.listener = listener;
    long expected = 0;
    for (int off = 0; off < sample.length; off += BLOCK) {
      expected += blockSum(sample, off, Math.min(BLOCK, sample.length - off));
    }
    this.expectedChecksum = expected;
    CodecFactory factory = codecs();
    try {
      for (Codec codec : codecsToMeasure()) {
        blocks.put(codec, compress(factory.getCompressor(codec.parquetCodec())));
        // Decompress in memory first: checks the round trip and warms the JIT (aircompressor's
        // LZ4 is plain Java), so the first device measured is not slowed by interpreted code.
        BytesInputDecompressor decompressor = factory.getDecompressor(codec.parquetCodec());
        long passes = Math.max(1, WARM_UP_BYTES / sample.length);
        for (long pass = 0; pass < passes; pass++) {
          long sum = 0;
          for (int i = 0; i < blocks.get(codec).size(); i++) {
            int rawLen = rawLength(i);
            sum += blockSum(decompress(decompressor, blocks.get(codec).get(i), rawLen), 0, rawLen);
          }
          if (sum != expectedChecksum) {
            throw new IllegalStateException(codec + " round trip of the calibration sample failed");
          }
        }
      }
    } catch (IOException e) {
      throw MosaicException.io("cannot compress the calibration sample: " + e.getMessage(), e);
    } finally {
      factory.release();
    }
  }

  /**
   * Parquet-java's codecs, which segments are written and read with: calibration measures the
   * decompression a scan pays (zstd-jni streams for zstd, aircompressor for LZ4_RAW), not the codec
   * libraries' own fastest calls. One factory per thread: its codecs keep per-stream state.
   */
  private static CodecFactory codecs() {
    return new CodecFactory(new Configuration(false), BLOCK);
  }

  private int rawLength(int block) {
    return Math.min(BLOCK, sample.length - block * BLOCK);
  }

  private static byte[] decompress(BytesInputDecompressor decompressor, byte[] stored, int rawLen)
      throws IOException {
    return decompressor.decompress(BytesInput.from(stored), rawLen).toByteArray();
  }

  /** Whether the OS page cache could be dropped before every read pass (needs root). */
  public boolean pageCacheDropped() {
    return cacheDropped;
  }

  /**
   * Measures {@code device} through its storage: the sample files are written through the device
   * (so they land where its data would, on HDFS in its storage policy's types) and read back
   * through its I/O path, for a local directory and an HDFS folder alike.
   */
  public DeviceModel calibrate(Device device) throws IOException {
    deleteAll(device);
    try {
      Map<Codec, DeviceModel.CodecModel> codecs = new EnumMap<>(Codec.class);
      Bandwidth raw = null;
      for (Codec codec : codecsToMeasure()) {
        List<byte[]> codecBlocks = blocks.get(codec);
        String file = DIR + "/sample." + codec.configName();
        long[] offsets = writeBlocks(device, file, codecBlocks);
        long fileBytes = offsets[offsets.length - 1];
        dropPageCache();
        listener.started(device, "read " + codec.configName(), fileBytes);
        double seconds = readAll(device, file, codec, codecBlocks, offsets);
        Bandwidth effective = new Bandwidth(sample.length / seconds);
        double ratio = (double) sample.length / fileBytes;
        codecs.put(codec, new DeviceModel.CodecModel(effective, ratio));
        if (codec == Codec.NONE) {
          raw = new Bandwidth(fileBytes / seconds);
        }
        listener.finished(
            device, "read " + codec.configName(), effective + " effective, ratio " + round(ratio));
      }
      Latency seek = measureSeek(device, DIR + "/sample.none", raw);
      listener.finished(device, "seek", seek.toString());
      return new DeviceModel(device.id(), device.spec().threads(), raw, seek, codecs);
    } finally {
      deleteAll(device);
    }
  }

  private List<Codec> codecsToMeasure() {
    List<Codec> codecs = new ArrayList<>(options.codecs());
    if (!codecs.contains(Codec.NONE)) {
      codecs.add(0, Codec.NONE);
    }
    codecs.sort(Comparator.naturalOrder());
    return codecs;
  }

  private List<byte[]> compress(BytesInputCompressor compressor) throws IOException {
    List<byte[]> out = new ArrayList<>();
    for (int off = 0; off < sample.length; off += BLOCK) {
      int len = Math.min(BLOCK, sample.length - off);
      out.add(compressor.compress(BytesInput.from(sample, off, len)).toByteArray());
    }
    return out;
  }

  private static long[] writeBlocks(Device device, String file, List<byte[]> codecBlocks)
      throws IOException {
    long[] offsets = new long[codecBlocks.size() + 1];
    // Straight to the device's storage, not through its capacity: the samples are deleted when
    // calibration ends, and a device sized for its data (the demo's) has no room to book them.
    try (OutputStream out = device.storage().create(file)) {
      for (int i = 0; i < codecBlocks.size(); i++) {
        out.write(codecBlocks.get(i));
        offsets[i + 1] = offsets[i] + codecBlocks.get(i).length;
      }
    }
    return offsets;
  }

  /** Reads and decompresses every block with the device's threads; returns elapsed seconds. */
  private double readAll(
      Device device, String file, Codec codec, List<byte[]> codecBlocks, long[] offsets)
      throws IOException {
    AtomicInteger cursor = new AtomicInteger();
    AtomicLong checksum = new AtomicLong();
    long start = System.nanoTime();
    onThreads(
        device.spec().threads(),
        () -> readerLoop(device, file, codec, codecBlocks, offsets, cursor, checksum));
    double seconds = (System.nanoTime() - start) / 1e9;
    if (checksum.get() != expectedChecksum) {
      throw new IOException(
          "calibration sample read back from " + file + " differs from what was written");
    }
    return seconds;
  }

  private void readerLoop(
      Device device,
      String file,
      Codec codec,
      List<byte[]> codecBlocks,
      long[] offsets,
      AtomicInteger cursor,
      AtomicLong checksum)
      throws IOException {
    CodecFactory factory = codecs();
    try (DeviceReadChannel ch = device.openForRead(file)) {
      BytesInputDecompressor decompressor = factory.getDecompressor(codec.parquetCodec());
      for (int i = cursor.getAndIncrement(); i < codecBlocks.size(); i = cursor.getAndIncrement()) {
        byte[] stored = new byte[codecBlocks.get(i).length];
        if (ch.readFully(ByteBuffer.wrap(stored), offsets[i]) != stored.length) {
          throw new IOException("calibration file " + file + " is shorter than written");
        }
        int rawLen = rawLength(i);
        checksum.addAndGet(blockSum(decompress(decompressor, stored, rawLen), 0, rawLen));
        listener.advanced(stored.length);
      }
    } finally {
      factory.release();
    }
  }

  /** A cheap order-independent check that decompression really produced the sample. */
  private static long blockSum(byte[] data, int offset, int len) {
    long h = 0;
    for (int i = 0; i < len; i += 64) {
      h = h * 31 + data[offset + i];
    }
    return h;
  }

  /**
   * The seek time Eq. 2 charges per column chunk read: the wall time of random 4 KiB reads issued
   * on the device's reader threads at once, over their number, less the transfer at the raw rate. A
   * scan reads a device's columns on those threads (Section 3.3), so this is the wait it sees: a
   * disk head (or the emulation's one timeline) serves the reads one after another and each costs a
   * whole seek, while an object store serves its threads' GETs side by side and their first bytes
   * overlap (docs/cost-model.md, "First bytes that overlap").
   */
  private Latency measureSeek(Device device, String file, Bandwidth raw) throws IOException {
    if (options.seekProbes() == 0) {
      return Latency.ZERO;
    }
    dropPageCache();
    long size;
    try (DeviceReadChannel ch = device.openForRead(file)) {
      size = ch.size();
    }
    if (size < 2L * PROBE) {
      return Latency.ZERO;
    }
    listener.started(device, "seek", (long) options.seekProbes() * PROBE);
    SplittableRandom random = new SplittableRandom(42);
    long[] positions = new long[options.seekProbes()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = random.nextLong(size / PROBE - 1) * PROBE;
    }
    AtomicInteger cursor = new AtomicInteger();
    long start = System.nanoTime();
    onThreads(
        Math.min(device.spec().threads(), positions.length),
        () -> {
          ByteBuffer buf = ByteBuffer.allocate(PROBE);
          for (int i = cursor.getAndIncrement();
              i < positions.length;
              i = cursor.getAndIncrement()) {
            // Opened per read, with its length known, as a scan opens a segment for a column
            // chunk: on an object store one GET, not a stream's re-positioning.
            try (DeviceReadChannel ch = device.openForRead(file, size)) {
              buf.clear();
              ch.readFully(buf, positions[i]);
            }
            listener.advanced(PROBE);
          }
        });
    double perRead = (System.nanoTime() - start) / 1e9 / positions.length;
    double seek = perRead - raw.secondsFor(PROBE);
    return new Latency(Math.max(0, Math.round(seek * 1e9)));
  }

  /** Work one of a device's reader threads does; several run it at once. */
  private interface ReaderWork {
    void run() throws IOException;
  }

  /** Runs {@code work} on {@code threads} threads at once and waits for all of them. */
  private static void onThreads(int threads, ReaderWork work) throws IOException {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        readers.add(
            pool.submit(
                () -> {
                  work.run();
                  return null;
                }));
      }
      for (Future<?> reader : readers) {
        reader.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("calibration interrupted", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Real devices must be measured from the device, not from the page cache; dropping it needs root.
   * Emulated devices are paced by their throttle either way.
   */
  private void dropPageCache() {
    try {
      Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "1");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      cacheDropped = false;
    }
  }

  private static String round(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  /**
   * Deletes the calibration folder on {@code device} and what it holds (files of this calibration,
   * or of one that was killed), and gives their bytes back to the device's capacity.
   */
  private static void deleteAll(Device device) throws IOException {
    for (Storage.FileStatus f : device.storage().list(DIR)) {
      device.storage().delete(f.key());
    }
    device.storage().delete(DIR);
  }
}
