package io.mosaic.device;

import io.mosaic.MosaicException;
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
 *     scan path (Parquet pages into the engine's vectors)
 */
public record CpuModel(double cores, Latency scanFixed, Map<Codec, Bandwidth> decode) {
  public CpuModel {
    Objects.requireNonNull(scanFixed, "scanFixed");
    decode = Map.copyOf(decode);
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
}
