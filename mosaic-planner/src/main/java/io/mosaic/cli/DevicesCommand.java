package io.mosaic.cli;

import io.mosaic.config.DeviceSpec;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/** Validates {@code devices.toml} and shows the pool as Mosaic understands it. */
@Command(
    name = "devices",
    mixinStandardHelpOptions = true,
    description = "Check a devices.toml and print the device pool it describes.")
final class DevicesCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Mixin PoolOption poolOption;

  @Override
  public Integer call() {
    DevicePool pool = poolOption.load();
    TextTable table =
        new TextTable("id", "name", "path", "capacity", "threads", "codec", "cost/GB", "emulated");
    for (Device device : pool.devices()) {
      DeviceSpec s = device.spec();
      table.row(
          s.id() + (device == pool.metadataDevice() ? " (metadata)" : ""),
          s.name(),
          s.local() ? s.path().toString() : s.location().toString(),
          s.capacity().toString(),
          Integer.toString(s.threads()),
          s.codec().configName(),
          s.costPerGb().toString(),
          s.emulation()
              .map(e -> e.read() + (e.seek().nanos() > 0 ? ", seek " + e.seek() : ""))
              .orElse("no"));
    }
    spec.commandLine().getOut().print(table.render());
    spec.commandLine().getOut().println(pool.devices().size() + " devices, configuration OK.");
    return 0;
  }
}
