package io.mosaic.bench.experiments;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The 56 device configurations of paper Section 5.3: each of the four devices holds 0-100% of the
 * data set in 20% steps, and the shares add up to 100%.
 */
public final class CapacityConfigurations {
  private CapacityConfigurations() {}

  /** Every configuration as device id -> percent of the data set, devices in the given order. */
  public static List<Map<String, Integer>> all(List<String> devices) {
    List<Map<String, Integer>> out = new ArrayList<>();
    fill(devices, 0, 100, new int[devices.size()], out);
    return out;
  }

  private static void fill(
      List<String> devices, int i, int left, int[] shares, List<Map<String, Integer>> out) {
    if (i == devices.size() - 1) {
      shares[i] = left;
      Map<String, Integer> config = new LinkedHashMap<>();
      for (int d = 0; d < devices.size(); d++) {
        config.put(devices.get(d), shares[d]);
      }
      out.add(config);
      return;
    }
    for (int share = 0; share <= left; share += 20) {
      shares[i] = share;
      fill(devices, i + 1, left - share, shares, out);
    }
  }

  /** "nvme 20 / ssd 0 / raid5 40 / hdd 40", for logs and CSV rows. */
  public static String label(Map<String, Integer> config) {
    StringBuilder s = new StringBuilder();
    config.forEach((d, p) -> s.append(s.isEmpty() ? "" : " / ").append(d).append(' ').append(p));
    return s.toString();
  }
}
