package io.mosaic.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The names of {@code place}'s strategies (docs/operations.md), as every front end takes them. */
class StrategyNameTest {
  @Test
  void eachNameParsesToItsStrategy() {
    assertThat(StrategyName.spellings()).containsExactly("lopt", "hot-column", "hot-table");
    assertThat(StrategyName.DEFAULT.spelling()).isEqualTo("lopt");
    for (StrategyName s : StrategyName.values()) {
      assertThat(StrategyName.parse(s.spelling())).isSameAs(s);
    }
    Duration limit = Duration.ofSeconds(5);
    assertThat(StrategyName.parse("lopt").strategy(limit).name()).isEqualTo("LOPT");
    assertThat(StrategyName.parse("hot-column").strategy(limit).name()).isEqualTo("HOT column");
    assertThat(StrategyName.parse("hot-table").strategy(limit).name()).isEqualTo("HOT table");
  }

  @Test
  void anUnknownNameIsRefusedNamingTheValidOnes() {
    // Exact spellings only: the front ends strip blanks, and "LOPT" is the solver's report name.
    assertThat(StrategyName.find("LOPT")).isEmpty();
    assertThatThrownBy(() -> StrategyName.parse("fastest"))
        .isInstanceOf(MosaicException.class)
        .hasMessage("strategy 'fastest' is unknown; use lopt, hot-column or hot-table");
  }
}
