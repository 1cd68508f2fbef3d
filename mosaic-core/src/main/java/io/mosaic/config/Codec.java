package io.mosaic.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/** The compression a device stores its column data with (paper Section 3.2). */
public enum Codec {
  NONE,
  LZ4,
  ZSTD;

  /** The spelling used in configuration and model files. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The Parquet codec segments on a device with this codec are written in (docs/format.md). */
  public CompressionCodecName parquetCodec() {
    return switch (this) {
      case NONE -> CompressionCodecName.UNCOMPRESSED;
      case LZ4 -> CompressionCodecName.LZ4_RAW;
      case ZSTD -> CompressionCodecName.ZSTD;
    };
  }

  /**
   * Parses {@code none}, {@code lz4} or {@code zstd}, ignoring case (the paper writes "ZSTD") but
   * nothing else: {@code "lz4 "} or {@code "lz4\0"} is no codec.
   */
  public static Optional<Codec> fromConfigName(String text) {
    return Arrays.stream(values()).filter(c -> c.name().equalsIgnoreCase(text)).findFirst();
  }

  public static String allowed() {
    return String.join(", ", Arrays.stream(values()).map(Codec::configName).toList());
  }
}
