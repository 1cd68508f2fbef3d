package io.mosaic.design;

import io.mosaic.config.Codec;
import io.mosaic.model.ColumnRef;
import java.util.List;
import java.util.Objects;

/**
 * One step of a transformation, committed on its own, so queries gain as each step lands: a
 * column's segments moved to another device (recompressed there when the codecs differ), re-encoded
 * with another codec on their device ({@link StepKind#CODEC}), or the table's rows sorted by a
 * column ({@link StepKind#SORT}; {@code from} and {@code to} are then {@value #ALL_DEVICES}).
 *
 * @param column the column (of a sort: the column sorted by)
 * @param from its device now
 * @param to its device in the target design (of a codec change: the same)
 * @param readBytes what is read on {@code from}
 * @param writeBytes what is written on {@code to}
 * @param costSeconds the modelled time of reading, recompressing and writing it
 * @param gainSeconds what one run of the workload saves by this step, given the steps before it
 * @param secondsAfter the predicted time of one workload run once this step and those before it are
 *     done
 * @param dependsOn the earlier steps (by index) that free room on {@code to} for this one
 * @param kind what the step does
 * @param codec the codec a {@link StepKind#CODEC} step writes; null for other kinds
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
    List<Integer> dependsOn,
    StepKind kind,
    Codec codec) {
  /** The devices of a sort step: it rewrites every column where it is. */
  public static final String ALL_DEVICES = "*";

  public MoveStep {
    dependsOn = List.copyOf(dependsOn);
    Objects.requireNonNull(kind, "kind");
    if ((kind == StepKind.CODEC) != (codec != null)) {
      throw new IllegalArgumentException("a codec step, and only one, names its codec: " + kind);
    }
  }

  /** A move. */
  public MoveStep(
      ColumnRef column,
      String from,
      String to,
      long readBytes,
      long writeBytes,
      double costSeconds,
      double gainSeconds,
      double secondsAfter,
      List<Integer> dependsOn) {
    this(
        column,
        from,
        to,
        readBytes,
        writeBytes,
        costSeconds,
        gainSeconds,
        secondsAfter,
        dependsOn,
        StepKind.MOVE,
        null);
  }

  /** Where the step leaves its column, for a person: the device, with the codec or the order. */
  public String target() {
    return target(kind, to, codec, column.column());
  }

  static String target(StepKind kind, String to, Codec codec, String column) {
    return switch (kind) {
      case MOVE -> to;
      case CODEC -> to + " (" + codec.configName() + ")";
      case SORT -> "sorted by " + column;
    };
  }
}
