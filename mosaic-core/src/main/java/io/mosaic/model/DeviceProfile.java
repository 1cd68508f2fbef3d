package io.mosaic.model;

import io.mosaic.MosaicException;
import io.mosaic.config.AccessPrice;
import io.mosaic.config.Bandwidth;
import io.mosaic.config.CatalogDevice;
import io.mosaic.config.Codec;
import io.mosaic.config.ColdSpec;
import io.mosaic.config.Cost;
import io.mosaic.config.DeviceSpec;
import io.mosaic.config.Latency;
import io.mosaic.config.Link;
import java.util.Objects;
import java.util.Optional;

/**
 * What the cost model needs of one device: the 5-tuple {@code <t_seek, cr, t, capacity, cost>} of
 * Eq. 1, for the codec the device stores its columns with.
 *
 * @param raw bytes per second coming off the device ({@code t} of Eq. 2)
 * @param effective uncompressed bytes per second a reader gets after decompression; for an
 *     I/O-bound device this is {@code cr * t}, a slow codec caps it lower (see {@link
 *     CostModel#columnTime})
 * @param ratio compression ratio {@code cr}: uncompressed / compressed size; 1 for {@code none}
 * @param capacityBytes how much the device holds; {@link Long#MAX_VALUE} in budget mode, where
 *     capacity is bought, not given (Section 3.4)
 * @param cold present for a cold storage device (Skipper Section 2.2): its disk groups and group
 *     switch, which the cost model charges each scan that reads it (docs/cost-model.md)
 * @param access an object store's prices per request and per GB retrieved, which budget mode adds
 *     to the storage price for the workload's reads (docs/cost-model.md, "Money per month"); {@link
 *     AccessPrice#NONE} for every other device
 * @param link the path to the host the device shares with others (an instance's network, its EBS
 *     bandwidth), whose rate bounds what a scan reads from all of them together
 *     (docs/cost-model.md, "Shared links"); empty for a device with its own path
 */
public record DeviceProfile(
    String id,
    Codec codec,
    Latency seek,
    Bandwidth raw,
    Bandwidth effective,
    double ratio,
    long capacityBytes,
    Cost costPerGb,
    Optional<ColdSpec> cold,
    AccessPrice access,
    Optional<Link> link) {

  /** Default lz4 compression ratio when none was measured: a typical ratio on TPC-H columns. */
  static final double DEFAULT_LZ4_RATIO = 2.5;

  /** Default zstd compression ratio when none was measured: a typical ratio on TPC-H columns. */
  public static final double DEFAULT_ZSTD_RATIO = 4.5;

  /** A device with its own path to the host (no {@link Link} shared with other devices). */
  public DeviceProfile(
      String id,
      Codec codec,
      Latency seek,
      Bandwidth raw,
      Bandwidth effective,
      double ratio,
      long capacityBytes,
      Cost costPerGb,
      Optional<ColdSpec> cold,
      AccessPrice access) {
    this(
        id,
        codec,
        seek,
        raw,
        effective,
        ratio,
        capacityBytes,
        costPerGb,
        cold,
        access,
        Optional.empty());
  }

  /** A warm device: reads cost no group switches. */
  public DeviceProfile(
      String id,
      Codec codec,
      Latency seek,
      Bandwidth raw,
      Bandwidth effective,
      double ratio,
      long capacityBytes,
      Cost costPerGb) {
    this(id, codec, seek, raw, effective, ratio, capacityBytes, costPerGb, Optional.empty());
  }

  /** A device whose reads cost nothing beyond its storage: all but object stores. */
  public DeviceProfile(
      String id,
      Codec codec,
      Latency seek,
      Bandwidth raw,
      Bandwidth effective,
      double ratio,
      long capacityBytes,
      Cost costPerGb,
      Optional<ColdSpec> cold) {
    this(id, codec, seek, raw, effective, ratio, capacityBytes, costPerGb, cold, AccessPrice.NONE);
  }

  public DeviceProfile {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(cold, "cold");
    Objects.requireNonNull(codec, "codec");
    Objects.requireNonNull(seek, "seek");
    Objects.requireNonNull(raw, "raw");
    Objects.requireNonNull(effective, "effective");
    Objects.requireNonNull(costPerGb, "costPerGb");
    Objects.requireNonNull(access, "access");
    Objects.requireNonNull(link, "link");
    if (!(ratio > 0) || Double.isInfinite(ratio)) {
      throw MosaicException.invalid(
          "device '" + id + "': compression ratio must be a positive number, not " + ratio);
    }
    if (capacityBytes < 0) {
      throw MosaicException.invalid(
          "device '" + id + "': capacity cannot be negative: " + capacityBytes);
    }
  }

  /** The same device under another id: Figure 9's identical copies. */
  public DeviceProfile withId(String newId) {
    return new DeviceProfile(
        newId, codec, seek, raw, effective, ratio, capacityBytes, costPerGb, cold, access, link);
  }

  /** The same device holding {@code bytes}: a capacity given or planned for. */
  public DeviceProfile withCapacity(long bytes) {
    return new DeviceProfile(
        id, codec, seek, raw, effective, ratio, bytes, costPerGb, cold, access, link);
  }

  /** The same device as a cold one with {@code spec}'s groups and switch (or warm: empty). */
  public DeviceProfile withCold(Optional<ColdSpec> spec) {
    return new DeviceProfile(
        id, codec, seek, raw, effective, ratio, capacityBytes, costPerGb, spec, access, link);
  }

  /** The same device on {@code shared} (or on its own path to the host: empty). */
  public DeviceProfile withLink(Optional<Link> shared) {
    return new DeviceProfile(
        id, codec, seek, raw, effective, ratio, capacityBytes, costPerGb, cold, access, shared);
  }

  /** Whether this is a cold storage device, whose scans pay group switches. */
  public boolean isCold() {
    return cold.isPresent();
  }

  /**
   * An installed device (capacity mode): capacity, codec and price from {@code devices.toml}; raw
   * throughput, seek time and the codec's effective throughput and ratio as calibration measured.
   */
  public static DeviceProfile installed(DeviceSpec spec, DeviceModel model) {
    if (!spec.id().equals(model.deviceId())) {
      throw MosaicException.invalid(
          "device model of '" + model.deviceId() + "' given for device '" + spec.id() + "'");
    }
    DeviceModel.CodecModel codec = model.codecs().get(spec.codec());
    if (codec == null) {
      if (spec.codec() != Codec.NONE) {
        throw MosaicException.invalid(
            "device '"
                + spec.id()
                + "' stores "
                + spec.codec().configName()
                + " but its device model has no "
                + spec.codec().configName()
                + " throughput; calibrate the device (docs/configuration.md)");
      }
      // Uncompressed data is read at the raw rate by definition.
      codec = new DeviceModel.CodecModel(model.raw(), 1.0);
    }
    return new DeviceProfile(
        spec.id(),
        spec.codec(),
        model.seek(),
        model.raw(),
        codec.effective(),
        spec.codec() == Codec.NONE ? 1.0 : codec.ratio(),
        spec.capacity().bytes(),
        spec.costPerGb(),
        spec.cold(),
        AccessPrice.NONE,
        spec.link());
  }

  /**
   * A device one could buy (budget mode): unbounded capacity, the catalogue's published read rate
   * as raw throughput, and {@code effective = raw * ratio} (Eq. 2 assumes decompression keeps up);
   * an object store's prices per request and per GB retrieved come along.
   *
   * @param ratio the compression ratio of the device's codec on the user's data, e.g. measured by
   *     calibration, or {@link #defaultRatio}
   */
  public static DeviceProfile catalog(CatalogDevice device, double ratio) {
    double cr = device.codec() == Codec.NONE ? 1.0 : ratio;
    return new DeviceProfile(
        device.id(),
        device.codec(),
        device.seek(),
        device.read(),
        new Bandwidth(device.read().bytesPerSecond() * cr),
        cr,
        Long.MAX_VALUE,
        device.costPerGb(),
        device.cold(),
        device.access(),
        device.link());
  }

  /** A catalogue device with the default ratio of its codec ({@link #defaultRatio}). */
  public static DeviceProfile catalog(CatalogDevice device) {
    return catalog(device, defaultRatio(device.codec()));
  }

  /**
   * Compression ratio to assume when nothing was measured: 1 for none, {@value #DEFAULT_LZ4_RATIO}
   * for lz4, {@value #DEFAULT_ZSTD_RATIO} for zstd. These are defaults, not measurements; prefer
   * the ratios `mosaic calibrate` measures on a sample of the user's data.
   */
  public static double defaultRatio(Codec codec) {
    return switch (codec) {
      case NONE -> 1.0;
      case LZ4 -> DEFAULT_LZ4_RATIO;
      case ZSTD -> DEFAULT_ZSTD_RATIO;
    };
  }

  /** Whether the device's capacity is bounded (installed) rather than bought (budget mode). */
  public boolean boundedCapacity() {
    return capacityBytes != Long.MAX_VALUE;
  }
}
