package io.mosaic;

import java.util.Arrays;
import java.util.Locale;

/**
 * How configuration spells an enum constant: lower case, '-' for '_' ({@code MAX_QUERIES} is {@code
 * max-queries}), read whatever the case and surrounding spaces, with one error for all options that
 * lists the choices.
 */
public final class ConfigNames {
  private ConfigNames() {}

  public static String of(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * @param what what the name names, for the error ("sharing policy")
   */
  public static <E extends Enum<E>> E parse(Class<E> type, String name, String what) {
    String wanted = name.trim().toLowerCase(Locale.ROOT);
    for (E e : type.getEnumConstants()) {
      if (of(e).equals(wanted)) {
        return e;
      }
    }
    throw MosaicException.invalid(
        what
            + " '"
            + name
            + "' is unknown; use one of "
            + String.join(
                ", ", Arrays.stream(type.getEnumConstants()).map(ConfigNames::of).toList()));
  }
}
