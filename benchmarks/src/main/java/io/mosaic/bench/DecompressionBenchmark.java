package io.mosaic.bench;

import com.github.luben.zstd.Zstd;
import io.mosaic.cli.CalibrationSample;
import io.mosaic.config.Codec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FastDecompressor;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;
import org.apache.parquet.hadoop.CodecFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Decompression speed per device codec (paper Section 3.2, Figure 3d's CPU side), one core: 16 MiB
 * of TPC-H lineitem values (the calibration sample, deterministic) in 1 MiB blocks. {@code via}
 * picks who decompresses: {@code parquet-java}, the codecs segment reads and {@code mosaic
 * calibrate} go through (parquet-hadoop's {@code CodecFactory}: ZSTD on zstd-jni streams, LZ4_RAW
 * on aircompressor), or {@code library}, the codec libraries' own block calls (zstd-jni level 3,
 * lz4-java), for what parquet-java's path costs or saves. Baseline: {@code none}, a plain copy of
 * the same bytes. Divide {@value #SAMPLE_BYTES} bytes by the score for MB/s of output.
 *
 * <p>Run: {@code benchmarks/bench jmh DecompressionBenchmark -wi 2 -i 3 -f 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
public class DecompressionBenchmark {
  static final int SAMPLE_BYTES = 16 << 20;
  private static final int BLOCK = 1 << 20;

  @Param({"none", "lz4", "zstd"})
  public String codec;

  @Param({"parquet-java", "library"})
  public String via;

  private final List<byte[]> blocks = new ArrayList<>();
  private final List<Integer> rawLengths = new ArrayList<>();
  private byte[] out;
  private Codec c;
  private LZ4FastDecompressor lz4;
  private BytesInputDecompressor parquet;

  @Setup
  public void setUp() throws IOException {
    c = Codec.fromConfigName(codec).orElseThrow();
    byte[] sample = CalibrationSample.generate(SAMPLE_BYTES);
    var compressor = LZ4Factory.fastestInstance().fastCompressor();
    lz4 = LZ4Factory.fastestInstance().fastDecompressor();
    CodecFactory codecs = new CodecFactory(new Configuration(false), BLOCK);
    BytesInputCompressor parquetCompressor = codecs.getCompressor(c.parquetCodec());
    parquet = codecs.getDecompressor(c.parquetCodec());
    for (int off = 0; off < sample.length; off += BLOCK) {
      byte[] raw = Arrays.copyOfRange(sample, off, Math.min(sample.length, off + BLOCK));
      rawLengths.add(raw.length);
      blocks.add(
          via.equals("parquet-java")
              ? parquetCompressor.compress(BytesInput.from(raw)).toByteArray()
              : switch (c) {
                case NONE -> raw;
                case LZ4 -> compressor.compress(raw);
                case ZSTD -> Zstd.compress(raw, 3);
              });
    }
    out = new byte[BLOCK];
  }

  /** Decompresses (or, for none, copies) every block; returns the bytes produced. */
  @Benchmark
  public long decompress() throws IOException {
    long produced = 0;
    for (int i = 0; i < blocks.size(); i++) {
      byte[] b = blocks.get(i);
      int n = rawLengths.get(i);
      if (via.equals("parquet-java")) {
        // As a page read: the page's bytes out of the codec as one heap array.
        byte[] page = parquet.decompress(BytesInput.from(b), n).toByteArray();
        produced += page.length + page[n - 1];
        continue;
      }
      switch (c) {
        case NONE -> System.arraycopy(b, 0, out, 0, n);
        case LZ4 -> lz4.decompress(b, 0, out, 0, n);
        case ZSTD -> Zstd.decompressByteArray(out, 0, n, b, 0, b.length);
      }
      produced += n + out[n - 1];
    }
    return produced;
  }

  public static void main(String[] args) throws RunnerException {
    new Runner(new OptionsBuilder().include(DecompressionBenchmark.class.getSimpleName()).build())
        .run();
  }
}
