package io.mosaic.design;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class MoveScheduleTest {
  @Test
  void eachShapeRunsAtItsRate() {
    MoveSchedule fast = new MoveSchedule(ScheduleShape.FAST_START, 10, 100, 500);
    assertThat(fast.rate(0, true)).isEqualTo(100);
    assertThat(fast.rate(499, true)).isEqualTo(100);
    assertThat(fast.rate(500, false)).isEqualTo(10);
    MoveSchedule slow = new MoveSchedule(ScheduleShape.SLOW_START, 10, 100, 500);
    assertThat(slow.rate(0, true)).isEqualTo(10);
    assertThat(slow.rate(0, false)).isEqualTo(100);
    MoveSchedule constant = new MoveSchedule(ScheduleShape.CONSTANT, 10, 100, 500);
    assertThat(constant.rate(0, false)).isEqualTo(10);
    assertThat(ScheduleShape.parse("Fast-Start")).isEqualTo(ScheduleShape.FAST_START);
  }

  @Test
  void aDeviceRunsAtItsOwnGentleRateAndAllAtTheFullRate() {
    MoveSchedule fast =
        new MoveSchedule(ScheduleShape.FAST_START, 10, 100, 500, java.util.Map.of("hdd", 2.0));
    assertThat(fast.rate("hdd", 0, true)).isEqualTo(100); // the working set: full rate
    assertThat(fast.rate("hdd", 500, true)).isEqualTo(2);
    assertThat(fast.rate("nvme", 500, true)).isEqualTo(10);
    MoveSchedule slow =
        new MoveSchedule(ScheduleShape.SLOW_START, 10, 100, 0, java.util.Map.of("hdd", 2.0));
    assertThat(slow.rate("hdd", 0, true)).isEqualTo(2);
    assertThat(slow.rate("hdd", 0, false)).isEqualTo(100);
    assertThatThrownBy(
            () ->
                new MoveSchedule(
                    ScheduleShape.CONSTANT, 10, 100, 0, java.util.Map.of("hdd", 200.0)))
        .hasMessageContaining("device hdd")
        .hasMessageContaining("a full rate at least as high");
  }

  @Test
  void eachShapeSaysWhenItMovesFasterThanTheRate() {
    assertThat(new MoveSchedule(ScheduleShape.FAST_START, 1, MoveSchedule.UNPACED, 5000).describe())
        .isEqualTo(
            "schedule fast-start: the working set (the first 5 kB) moves at the full rate"
                + " (unpaced; --full-rate bounds it), the rest at 1 B/s (--shape constant paces"
                + " every byte at the rate)");
    assertThat(
            new MoveSchedule(ScheduleShape.SLOW_START, 1e6, 2e7, 0, Map.of("hdd", 5e5)).describe())
        .isEqualTo(
            "schedule slow-start: 1 MB/s, hdd 500 kB/s while queries read the table, the full"
                + " rate 20 MB/s (--full-rate) while none does");
    assertThat(new MoveSchedule(ScheduleShape.CONSTANT, 1, 1, 0).describe())
        .isEqualTo("schedule constant: 1 B/s throughout");
  }

  @Test
  void badRatesAndShapesNameTheFix() {
    assertThatThrownBy(() -> new MoveSchedule(ScheduleShape.CONSTANT, 0, 100, 0))
        .hasMessageContaining("give a rate above 0");
    assertThatThrownBy(() -> new MoveSchedule(ScheduleShape.CONSTANT, 100, 10, 0))
        .hasMessageContaining("a full rate at least as high");
    assertThatThrownBy(() -> ScheduleShape.parse("burst"))
        .hasMessageContaining("use one of fast-start, slow-start, constant");
  }
}
