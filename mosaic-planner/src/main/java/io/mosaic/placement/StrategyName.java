package io.mosaic.placement;

import io.mosaic.ConfigNames;
import io.mosaic.MosaicException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The strategies a user can name in {@code place} (docs/operations.md): the paper's LOPT (Section
 * 4.5) and its two baselines (Sections 4.3 and 4.4). Every front end (CLI, Spark and Trino
 * procedures, Trino's {@code "t$plan"}) takes its names, its parse and its strategy from here.
 */
public enum StrategyName {
  /** {@code lopt}: the exact MIP of Section 4.5. */
  LOPT,
  /** {@code hot-column}: the hottest columns first on the fastest devices (Section 4.4). */
  HOT_COLUMN,
  /** {@code hot-table}: the hottest tables first on the fastest devices (Section 4.3). */
  HOT_TABLE;

  /** The strategy of a {@code place} that names none (docs/operations.md). */
  public static final StrategyName DEFAULT = LOPT;

  /** The name as the user writes it, spelled as configuration spells enums: {@code hot-column}. */
  public String spelling() {
    return ConfigNames.of(this);
  }

  /** Every name as the user writes it, in declaration order. */
  public static List<String> spellings() {
    return Arrays.stream(values()).map(StrategyName::spelling).toList();
  }

  /**
   * The strategy the user wrote exactly, or empty for an unknown name. Not ConfigNames.parse: place
   * has always taken the exact names, and its error lists them as "a, b or c".
   */
  public static Optional<StrategyName> find(String name) {
    return Arrays.stream(values()).filter(s -> s.spelling().equals(name)).findFirst();
  }

  /**
   * The strategy the user wrote exactly.
   *
   * @throws MosaicException (invalid) naming the valid names, for an unknown name
   */
  public static StrategyName parse(String name) {
    return find(name)
        .orElseThrow(
            () -> {
              List<String> names = spellings();
              String valid =
                  String.join(", ", names.subList(0, names.size() - 1))
                      + " or "
                      + names.get(names.size() - 1);
              return MosaicException.invalid("strategy '" + name + "' is unknown; use " + valid);
            });
  }

  /** The strategy itself; {@code timeLimit} bounds LOPT's solve, its polish included. */
  public PlacementStrategy strategy(Duration timeLimit) {
    return switch (this) {
      case LOPT -> new LoptStrategy(timeLimit);
      case HOT_COLUMN -> new HotColumnStrategy();
      case HOT_TABLE -> new HotTableStrategy();
    };
  }
}
