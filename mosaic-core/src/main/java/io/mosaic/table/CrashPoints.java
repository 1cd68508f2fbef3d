package io.mosaic.table;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Named points in the write and migration paths where a crash must leave the table intact. The
 * crash harness (CrashSafetyTest) starts a writer JVM with {@code -Dmosaic.crash.at=N}: at the N-th
 * point reached, the process announces it on stdout and stops, and the harness kills it with
 * SIGKILL there ({@code 0} only counts the points). Without the property this costs one static
 * check. With {@code -Dmosaic.crash.name=NAME} only the points of that name count, so a harness can
 * stop a process at, say, its second {@code design-step-committed}.
 */
public final class CrashPoints {
  private static final boolean ENABLED = System.getProperty("mosaic.crash.at") != null;
  private static final int AT = Integer.getInteger("mosaic.crash.at", 0);
  private static final String NAME = System.getProperty("mosaic.crash.name");
  private static final AtomicInteger REACHED = new AtomicInteger();

  private CrashPoints() {}

  public static void reached(String name) {
    if (!ENABLED || (NAME != null && !NAME.equals(name))) {
      return;
    }
    int n = REACHED.incrementAndGet();
    if (n == AT) {
      System.out.println("CRASHPOINT " + n + " " + name);
      System.out.flush();
      while (true) {
        try {
          Thread.sleep(60_000);
        } catch (InterruptedException e) {
          // Only SIGKILL ends this process now.
        }
      }
    }
  }

  /** How many points this process has passed (the harness uses it to know how many exist). */
  public static int count() {
    return REACHED.get();
  }
}
