package io.mosaic.model;

import io.mosaic.MosaicException;
import io.mosaic.config.Codec;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The size of one column: {@code size(c)} of Eq. 2, plus the real compressed sizes Mosaic already
 * knows because the column is (or was) stored with that codec (Section 4.1: "Mosaic looks up the
 * actual size instead of estimating it").
 *
 * @param bytes the uncompressed size
 * @param storedBytes real compressed size per codec, when known; may be empty
 * @param values how many values the column holds (its table's rows), 0 if not known
 * @param variableWidth whether its values are strings or binaries, whose decoding costs per value
 *     and per byte where fixed-width values cost per byte ({@link
 *     io.mosaic.model.CpuModel.Decoding}, docs/cost-model.md)
 */
public record ColumnSize(
    ColumnRef column,
    long bytes,
    Map<Codec, Long> storedBytes,
    long values,
    boolean variableWidth) {
  /** A column whose values (their number and kind) are not known: decoded at the mean rate. */
  public ColumnSize(ColumnRef column, long bytes, Map<Codec, Long> storedBytes) {
    this(column, bytes, storedBytes, 0, false);
  }

  public ColumnSize {
    Objects.requireNonNull(column, "column");
    if (values < 0) {
      throw MosaicException.invalid("column " + column + " has a negative value count: " + values);
    }
    if (bytes < 0) {
      throw MosaicException.invalid("column " + column + " has a negative size: " + bytes);
    }
    storedBytes = Map.copyOf(storedBytes);
    storedBytes.forEach(
        (codec, stored) -> {
          if (stored < 0) {
            throw MosaicException.invalid(
                "column " + column + " has a negative " + codec.configName() + " size: " + stored);
          }
        });
  }

  /** A column whose compressed sizes are not known yet: the model estimates them (Eq. 2). */
  public static ColumnSize uncompressed(ColumnRef column, long bytes) {
    return new ColumnSize(column, bytes, Map.of());
  }

  /** Whether the number of values and their kind are known (the per-kind decoding rates apply). */
  public boolean valuesKnown() {
    return values > 0;
  }

  /** The measured size of this column stored with {@code codec}, if known. */
  public Optional<Long> stored(Codec codec) {
    return Optional.ofNullable(storedBytes.get(codec));
  }
}
