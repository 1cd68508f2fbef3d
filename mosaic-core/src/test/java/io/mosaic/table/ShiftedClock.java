package io.mosaic.table;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** The system clock moved forward by a test: how retention and leases are aged without waiting. */
final class ShiftedClock extends Clock {
  private final AtomicLong shift = new AtomicLong();

  void advance(long millis) {
    shift.addAndGet(millis);
  }

  @Override
  public long millis() {
    return System.currentTimeMillis() + shift.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException();
  }
}
