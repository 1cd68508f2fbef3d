package io.mosaic.placement;

import io.mosaic.config.ByteSize;
import java.math.BigDecimal;
import java.math.RoundingMode;

/** How placement messages print sizes and prices. */
final class Numbers {
  private Numbers() {}

  /** {@code "12 GB"}, {@code "1.5 TB"}: decimal units, as devices are sold. */
  static String bytes(long bytes) {
    return ByteSize.ofBytes(Math.max(0, bytes)).toString();
  }

  /** {@code "300 ct"}, {@code "1234.56 ct"}: cents to two decimals, no exponent. */
  static String cents(double cents) {
    return new BigDecimal(cents)
            .setScale(2, RoundingMode.HALF_UP)
            .stripTrailingZeros()
            .toPlainString()
        + " ct";
  }
}
