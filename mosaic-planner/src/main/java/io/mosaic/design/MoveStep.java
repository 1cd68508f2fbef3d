package io.mosaic.design;

import io.mosaic.model.ColumnRef;
import java.util.List;

/**
 * One step of a transformation: a column's segments moved to another device (recompressed there
 * when the codecs differ), committed on its own, so queries gain as each step lands.
 *
 * @param column the column
 * @param from its device now
 * @param to its device in the target design
 * @param readBytes what is read on {@code from}
 * @param writeBytes what is written on {@code to}
 * @param costSeconds the modelled time of reading, recompressing and writing it
 * @param gainSeconds what one run of the workload saves by this step, given the steps before it
 * @param secondsAfter the predicted time of one workload run once this step and those before it are
 *     done
 * @param dependsOn the earlier steps (by index) that free room on {@code to} for this one
 */
public record MoveStep(
    ColumnRef column,
    String from,
    String to,
    long readBytes,
    long writeBytes,
    double costSeconds,
    double gainSeconds,
    double secondsAfter,
    List<Integer> dependsOn) {
  public MoveStep {
    dependsOn = List.copyOf(dependsOn);
  }
}
