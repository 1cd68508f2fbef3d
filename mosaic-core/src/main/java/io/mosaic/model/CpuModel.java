package io.mosaic.model;

import io.mosaic.MosaicException;
import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Latency;
import java.util.Map;
import java.util.Objects;

/**
 * What calibration measured of the host's processors, the part of a scan's time the paper's Eq. 2-4
 * leave out (docs/cost-model.md): decoding is CPU work shared by all of a scan's columns whatever
 * device they come from, and each scan pays a fixed cost before its first byte.
 *
 * @param cores how many cores' worth of decoding a scan gets: the decoding throughput of the
 *     retriever with all its decoding threads divided by that of one thread (below the thread count
 *     when readers, the engine or the machine's other work compete for the cores)
 * @param scanFixed the time one scan costs however little it reads (pin, manifest, footers, thread
 *     hand-offs, trace append)
 * @param decode per codec, uncompressed bytes one core decompresses and decodes per second on the
 *     scan path (Parquet pages into the engine's vectors), over a table's columns of every kind:
 *     the rate of a column whose kind is not known
 * @param byKind per codec, the same work by the kind of a column's values, where calibration
 *     measured it (files written before have none)
 */
public record CpuModel(
    double cores, Latency scanFixed, Map<Codec, Bandwidth> decode, Map<Codec, Decoding> byKind) {

  /**
   * One core's decoding of one codec by the kind of values (docs/cost-model.md, "Decoding by kind
   * of value"). Fixed-width values (numbers, dates) cost per byte; strings and binaries cost per
   * value (each is materialised into the vector: a dictionary-encoded column of short strings is a
   * few bytes per value yet decodes slower per byte than any number) plus per byte (copying).
   *
   * @param fixedWidth uncompressed bytes of fixed-width columns decoded per second
   * @param variableBytes the per-byte part of strings and binaries, bytes per second
   * @param variableValueNanos the per-value part of strings and binaries, nanoseconds
   */
  public record Decoding(Bandwidth fixedWidth, Bandwidth variableBytes, double variableValueNanos) {
    public Decoding {
      Objects.requireNonNull(fixedWidth, "fixedWidth");
      Objects.requireNonNull(variableBytes, "variableBytes");
      if (!(variableValueNanos >= 0) || Double.isInfinite(variableValueNanos)) {
        throw MosaicException.invalid(
            "the decoding cost per string value must be a number of nanoseconds of at least 0, not "
                + variableValueNanos);
      }
    }

    /** One core's seconds for a column of {@code values} values, {@code bytes} uncompressed. */
    public double seconds(long bytes, long values, boolean variableWidth) {
      return variableWidth
          ? values * variableValueNanos / 1e9 + variableBytes.secondsFor(bytes)
          : fixedWidth.secondsFor(bytes);
    }
  }

  /** A model without rates by kind, as files written before them read. */
  public CpuModel(double cores, Latency scanFixed, Map<Codec, Bandwidth> decode) {
    this(cores, scanFixed, decode, Map.of());
  }

  public CpuModel {
    Objects.requireNonNull(scanFixed, "scanFixed");
    decode = Map.copyOf(decode);
    byKind = Map.copyOf(byKind);
    if (!(cores >= 1) || Double.isInfinite(cores)) {
      throw MosaicException.invalid("cores must be a number of at least 1, not " + cores);
    }
  }

  /** One core's decoding rate of {@code codec}, or a clear error naming what to calibrate. */
  public Bandwidth decode(Codec codec) {
    Bandwidth rate = decode.get(codec);
    if (rate == null) {
      throw MosaicException.invalid(
          "the device model's [cpu] table has no "
              + codec.configName()
              + " decoding rate; calibrate again with --codecs including "
              + codec.configName()
              + " (docs/configuration.md)");
    }
    return rate;
  }

  /** Seconds the scan's processors spend decoding {@code uncompressed} bytes of {@code codec}. */
  public double seconds(Codec codec, long uncompressed) {
    return decode(codec).secondsFor(uncompressed) / cores;
  }

  /**
   * Seconds the scan's processors spend decoding a column of {@code codec}: by the kind of its
   * values where both they and the codec's rates by kind are known, else at the codec's mean rate.
   *
   * @param values the column's values, 0 if not known
   */
  public double seconds(Codec codec, long uncompressed, long values, boolean variableWidth) {
    Decoding kind = byKind.get(codec);
    if (kind == null || values <= 0) {
      return seconds(codec, uncompressed);
    }
    return kind.seconds(uncompressed, values, variableWidth) / cores;
  }
}
