package io.mosaic.cli;

import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;

/**
 * The column data calibration writes to each device: TPC-H {@code lineitem} laid out column by
 * column in batches of rows, plain-encoded as Parquet would (little-endian numbers, length-prefixed
 * strings), so measured compression ratios resemble those of real segments.
 */
public final class CalibrationSample {
  private static final int BATCH = 1 << 16;

  private CalibrationSample() {}

  public static byte[] generate(long bytes) {
    ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(bytes)).order(ByteOrder.LITTLE_ENDIAN);
    // SF 10 has 60M rows, far more than any sample needs; the generator is lazy.
    Iterator<LineItem> rows = new LineItemGenerator(10, 1, 1).iterator();
    LineItem[] batch = new LineItem[BATCH];
    while (out.hasRemaining()) {
      for (int i = 0; i < BATCH; i++) {
        batch[i] = rows.next();
      }
      for (int column = 0; column < 16 && out.hasRemaining(); column++) {
        for (int i = 0; i < BATCH && out.hasRemaining(); i++) {
          put(out, batch[i], column);
        }
      }
    }
    return out.array();
  }

  private static void put(ByteBuffer out, LineItem r, int column) {
    switch (column) {
      case 0 -> putLong(out, r.getOrderKey());
      case 1 -> putLong(out, r.getPartKey());
      case 2 -> putLong(out, r.getSupplierKey());
      case 3 -> putInt(out, r.getLineNumber());
      case 4 -> putLong(out, r.getQuantity());
      case 5 -> putLong(out, r.getExtendedPriceInCents());
      case 6 -> putLong(out, r.getDiscountPercent());
      case 7 -> putLong(out, r.getTaxPercent());
      case 8 -> putString(out, r.getReturnFlag());
      case 9 -> putString(out, r.getStatus());
      case 10 -> putInt(out, r.getShipDate());
      case 11 -> putInt(out, r.getCommitDate());
      case 12 -> putInt(out, r.getReceiptDate());
      case 13 -> putString(out, r.getShipInstructions());
      case 14 -> putString(out, r.getShipMode());
      default -> putString(out, r.getComment());
    }
  }

  private static void putLong(ByteBuffer out, long v) {
    for (int b = 0; b < 8 && out.hasRemaining(); b++) {
      out.put((byte) (v >>> (8 * b)));
    }
  }

  private static void putInt(ByteBuffer out, int v) {
    for (int b = 0; b < 4 && out.hasRemaining(); b++) {
      out.put((byte) (v >>> (8 * b)));
    }
  }

  private static void putString(ByteBuffer out, String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    putInt(out, utf8.length);
    out.put(utf8, 0, Math.min(utf8.length, out.remaining()));
  }
}
