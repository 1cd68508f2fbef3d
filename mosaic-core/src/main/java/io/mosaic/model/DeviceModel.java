package io.mosaic.model;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Latency;
import java.util.Map;

/**
 * What calibration measured on one device (paper Figure 3d), read by the cost model (Eq. 2).
 *
 * @param raw bytes per second coming off the device with its configured reader threads
 * @param seek the time a non-sequential read costs before data flows
 * @param codecs per codec, effective throughput (decompressed bytes per second, i.e. {@code cr * t}
 *     of Eq. 2) and the compression ratio measured on the calibration sample
 */
public record DeviceModel(
    String deviceId, int threads, Bandwidth raw, Latency seek, Map<Codec, CodecModel> codecs) {

  public DeviceModel {
    codecs = Map.copyOf(codecs);
  }

  /** Throughput and compression ratio of one codec on one device. */
  public record CodecModel(Bandwidth effective, double ratio) {}
}
