package io.mosaic.design;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pacing decision, slice by slice, on a clock the test advances (no sleeping, so the bounds are
 * exact on a loaded machine): {@code slow-start} speeds up within a chunk as soon as the queries
 * stop, and a rate that does not change still lets no byte through faster than it.
 */
class ChunkPacingTest {
  @TempDir Path dir;

  private static final double GENTLE = 1e6;
  private static final double FULL = 1e15;
  private static final long START = 1_000_000_000L;

  /** A clock whose sleep moves it to the due time. */
  private static final class TestClock implements ChunkPacing.Sleep {
    long now = START;

    @Override
    public void until(long due) {
      now = Math.max(now, due);
    }
  }

  @Test
  void slowStartSpeedsUpWithinAChunkWhenTheQueriesStop() {
    Path hdd = dir.resolve("hdd");
    TestClock clock = new TestClock();
    // A 4 MB chunk at 1 MB/s while a query holds a pin, which it drops after 1 s: decided once per
    // chunk it took 4 s, decided per slice it takes 1 s and at most one slice more.
    long bytes = 4_000_000;
    ScheduleShape shape = ScheduleShape.SLOW_START;
    MoveSchedule schedule = new MoveSchedule(shape, GENTLE, FULL, 0);
    ChunkPacing.pace(
        bytes,
        START,
        () -> Map.of(hdd, schedule.rate(0, clock.now < START + 1_000_000_000L)),
        clock,
        () -> {});
    double seconds = (clock.now - START) / 1e9;
    assertThat(seconds).isGreaterThanOrEqualTo(1.0);
    assertThat(seconds).isLessThanOrEqualTo(1.0 + ChunkPacing.SLICE_NANOS / 1e9 + 1e-6);
  }

  @Test
  void aSteadyRateLetsNoByteThroughFasterThanItAndIdleDevicesDoNotSaveUp() {
    Path ssd = dir.resolve("ssd");
    Path hdd = dir.resolve("hdd");
    TestClock clock = new TestClock();
    // Read on ssd at 2 MB/s, written on hdd at 1 MB/s: the slower one binds, 3 MB take 3 s.
    ChunkPacing.pace(3_000_000, START, () -> Map.of(ssd, 2 * GENTLE, hdd, GENTLE), clock, () -> {});
    assertThat(clock.now - START).isEqualTo(3_000_000_000L);
    // The copy of the next chunk started 10 s later: its time counts (no burst from the idle 10 s:
    // the bucket starts from the copy, not from where it stopped), and the copy itself took 0.5 s.
    long copyStart = clock.now + 10_000_000_000L;
    clock.now = copyStart + 500_000_000L;
    ChunkPacing.pace(1_000_000, copyStart, () -> Map.of(hdd, GENTLE), clock, () -> {});
    assertThat(clock.now - copyStart).isEqualTo(1_000_000_000L);
  }

  @Test
  void slicesAreDecidedAboutEverySliceTime() {
    Path hdd = dir.resolve("hdd");
    TestClock clock = new TestClock();
    int[] decisions = {0};
    ChunkPacing.pace(
        1_000_000,
        START,
        () -> {
          decisions[0]++;
          return Map.of(hdd, 200_000.0); // the draft's 0.2 MB/s: 5 s for a 1 MB chunk
        },
        clock,
        () -> {});
    assertThat(clock.now - START).isEqualTo(5_000_000_000L);
    assertThat(decisions[0]).isBetween(30, 40); // 5 s / 150 ms, not one
  }
}
