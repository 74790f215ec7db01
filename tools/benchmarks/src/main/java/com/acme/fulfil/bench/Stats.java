package com.acme.fulfil.bench;

import java.util.List;

/** Nearest-rank percentiles of a sample. */
final class Stats {
  private Stats() {}

  static double percentile(List<Double> sample, double percent) {
    if (sample.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = sample.stream().sorted().toList();
    int rank = (int) Math.ceil(percent / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }

  static double median(List<Double> sample) {
    return percentile(sample, 50);
  }
}
