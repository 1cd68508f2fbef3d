package io.mosaic.cli;

import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFolders;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code mosaic adopt}: a table root that was moved takes its segment folders over. */
@Command(
    name = "adopt",
    mixinStandardHelpOptions = true,
    description = {
      "After a table's directory was moved or renamed by hand (mv), make the moved root the owner"
          + " of the table's segment folders again, so that writes, migrations, gc and drops"
          + " through it are accepted. Until then they are refused, since a copy of a moved root"
          + " (cp) looks the same and would delete the original's segments.",
      "Run it only on the moved table itself, never on a copy: copy tables with `mosaic clone`."
          + " A root whose folders' owner is still a table with its id is a copy, and is refused."
    })
final class AdoptCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TableOptions options;

  @Override
  public Integer call() {
    MosaicTable table = options.open();
    TableFolders.Adoption a = TableFolders.adopt(table, previous -> true);
    PrintWriter out = spec.commandLine().getOut();
    if (a.adopted().isEmpty()) {
      out.printf(
          "table %s (id %s) already owns its segment folders%s; nothing changed%n",
          table.name(),
          a.tableId(),
          a.owned().isEmpty() ? "" : " on " + String.join(", ", a.owned()));
    } else {
      out.printf(
          "table %s (id %s) at %s now owns its segment folders on %s%s%n",
          table.name(),
          a.tableId(),
          table.location(),
          String.join(", ", a.adopted()),
          a.from().isEmpty()
              ? ""
              : " (they named "
                  + String.join(", ", a.from().stream().map(Object::toString).toList())
                  + ")");
    }
    return 0;
  }
}
