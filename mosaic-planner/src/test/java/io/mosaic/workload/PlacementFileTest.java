package io.mosaic.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.model.ColumnRef;
import io.mosaic.model.Placement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The placement CSV: round trip, and errors that name the file, the line and the fix. */
class PlacementFileTest {
  @Test
  void formatThenParseGivesTheSamePlacementAndSkipsCommentsAndBlankLines() {
    Placement p =
        new Placement(
            Map.of(
                new ColumnRef("lineitem", "l_tax"), "ssd",
                new ColumnRef("orders", "o_comment"), "hdd"));
    String text = "# written by a test\n\n" + PlacementFile.format(p).replace("\n", "\n\n");
    assertThat(PlacementFile.parse(text, "p.csv").deviceOf()).isEqualTo(p.deviceOf());
  }

  @Test
  void badLinesAreNamedWithTheirLineNumber() {
    assertThatThrownBy(() -> PlacementFile.parse("table,column\n", "p.csv"))
        .hasMessage("p.csv:1: expected the header \"table,column,device\", not \"table,column\"");
    assertThatThrownBy(
            () -> PlacementFile.parse("table,column,device\n# c\nlineitem,l_tax\n", "p.csv"))
        .hasMessage("p.csv:3: expected table,column,device like \"lineitem,l_tax,ssd\"");
    assertThatThrownBy(
            () ->
                PlacementFile.parse(
                    "table,column,device\nlineitem,l_tax,ssd\nlineitem, l_tax ,hdd\n", "p.csv"))
        .hasMessage("p.csv:3: column lineitem.l_tax is placed twice; keep one line per column");
  }
}
