#include "bowstring/runtime/cpu_count.h"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "bowstring/util/error.h"

namespace bowstring {
namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) {
      return parts;
    }
    start = end + 1;
  }
}

std::string_view trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    return {};
  }
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

std::optional<int64_t> parse_int64(std::string_view text) {
  text = trim(text);
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    return std::nullopt;
  }
  return value;
}

std::optional<int> cpus_of_quota(std::optional<int64_t> quota, std::optional<int64_t> period) {
  if (!quota || !period || *quota <= 0 || *period <= 0) {
    return std::nullopt;
  }
  const int64_t cpus = *quota / *period + (*quota % *period != 0 ? 1 : 0);
  return static_cast<int>(std::clamp<int64_t>(cpus, 1, kMaxThreads));
}

bool contains_word(std::string_view list, std::string_view word) {
  for (const std::string_view item : split(list, ',')) {
    if (item == word) {
      return true;
    }
  }
  return false;
}

/// The directory of cgroup `path` under `mount`: its path below the mount's root, or the mount
/// point itself when the path lies outside that root (a cgroup namespace hides the rest).
std::string cgroup_directory(const CgroupMount& mount, const std::string& path) {
  std::string relative;
  if (mount.root == "/") {
    relative = path;
  } else if (path.compare(0, mount.root.size(), mount.root) == 0 &&
             (path.size() == mount.root.size() || path[mount.root.size()] == '/')) {
    relative = path.substr(mount.root.size());
  }
  while (!relative.empty() && relative.back() == '/') {
    relative.pop_back();
  }
  return mount.mount_point + relative;
}

/// The smallest limit `limit_in(directory)` gives for the cgroup's directory and each ancestor
/// directory up to the mount point.
std::optional<int> tightest_limit(
    const CgroupMount& mount, const std::string& path,
    const std::function<std::optional<int>(const std::string&)>& limit_in) {
  std::optional<int> tightest;
  std::string directory = cgroup_directory(mount, path);
  while (true) {
    const std::optional<int> limit = limit_in(directory);
    if (limit && (!tightest || *limit < *tightest)) {
      tightest = limit;
    }
    if (directory.size() <= mount.mount_point.size()) {
      return tightest;
    }
    directory.erase(directory.rfind('/'));
  }
}

}  // namespace

CgroupMounts parse_mountinfo(std::string_view mountinfo) {
  CgroupMounts mounts;
  for (const std::string_view line : split(mountinfo, '\n')) {
    // "ID PARENT MAJOR:MINOR ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS"
    const size_t dash = line.find(" - ");
    if (dash == std::string_view::npos) {
      continue;
    }
    const std::vector<std::string_view> fields = split(line.substr(0, dash), ' ');
    const std::vector<std::string_view> tail = split(line.substr(dash + 3), ' ');
    if (fields.size() < 5 || tail.size() < 3) {
      continue;
    }
    const CgroupMount mount{std::string(fields[3]), std::string(fields[4])};
    if (tail[0] == "cgroup2" && !mounts.v2) {
      mounts.v2 = mount;
    } else if (tail[0] == "cgroup" && contains_word(trim(tail[2]), "cpu") && !mounts.v1_cpu) {
      mounts.v1_cpu = mount;
    }
  }
  return mounts;
}

CgroupPaths parse_proc_self_cgroup(std::string_view proc_self_cgroup) {
  CgroupPaths paths;
  for (const std::string_view line : split(proc_self_cgroup, '\n')) {
    // "HIERARCHY_ID:CONTROLLERS:PATH"; the path may itself hold colons.
    const size_t first = line.find(':');
    const size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
    if (second == std::string_view::npos) {
      continue;
    }
    const std::string_view controllers = line.substr(first + 1, second - first - 1);
    const std::string path(trim(line.substr(second + 1)));
    if (path.empty() || path[0] != '/') {
      continue;
    }
    if (line.substr(0, first) == "0" && controllers.empty()) {
      paths.v2 = path;
    } else if (contains_word(controllers, "cpu")) {
      paths.v1_cpu = path;
    }
  }
  return paths;
}

std::optional<int> parse_cgroup_v2_cpu_max(std::string_view cpu_max) {
  const std::vector<std::string_view> fields = split(trim(cpu_max), ' ');
  if (fields.size() != 2 || fields[0] == "max") {
    return std::nullopt;
  }
  return cpus_of_quota(parse_int64(fields[0]), parse_int64(fields[1]));
}

std::optional<int> parse_cgroup_v1_cpu_quota(std::string_view quota_us,
                                             std::string_view period_us) {
  return cpus_of_quota(parse_int64(quota_us), parse_int64(period_us));
}

std::optional<std::string> read_small_file(const std::string& path) {
  std::ifstream file(path);
  if (!file) {
    return std::nullopt;
  }
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::optional<int> cgroup_cpu_limit(const FileReader& read) {
  const std::optional<std::string> cgroup = read("/proc/self/cgroup");
  const std::optional<std::string> mountinfo = read("/proc/self/mountinfo");
  if (!cgroup || !mountinfo) {
    return std::nullopt;
  }
  const CgroupPaths paths = parse_proc_self_cgroup(*cgroup);
  const CgroupMounts mounts = parse_mountinfo(*mountinfo);
  std::optional<int> limit;
  const auto tighten = [&](std::optional<int> candidate) {
    if (candidate && (!limit || *candidate < *limit)) {
      limit = candidate;
    }
  };
  if (paths.v2 && mounts.v2) {
    tighten(tightest_limit(*mounts.v2, *paths.v2, [&](const std::string& directory) {
      const std::optional<std::string> cpu_max = read(directory + "/cpu.max");
      return cpu_max ? parse_cgroup_v2_cpu_max(*cpu_max) : std::nullopt;
    }));
  }
  if (paths.v1_cpu && mounts.v1_cpu) {
    tighten(tightest_limit(*mounts.v1_cpu, *paths.v1_cpu, [&](const std::string& directory) {
      const std::optional<std::string> quota = read(directory + "/cpu.cfs_quota_us");
      const std::optional<std::string> period = read(directory + "/cpu.cfs_period_us");
      return quota && period ? parse_cgroup_v1_cpu_quota(*quota, *period) : std::nullopt;
    }));
  }
  return limit;
}

int affinity_cpu_count() {
  // The mask must be at least as large as the kernel's; grow it until sched_getaffinity fits.
  for (int cpus = 1024; cpus <= (1 << 20); cpus *= 2) {
    cpu_set_t* mask = CPU_ALLOC(cpus);
    if (mask == nullptr) {
      return 1;
    }
    const size_t size = CPU_ALLOC_SIZE(cpus);
    const int result = sched_getaffinity(0, size, mask);
    const int count = result == 0 ? CPU_COUNT_S(size, mask) : 0;
    const bool too_small = result != 0 && errno == EINVAL;
    CPU_FREE(mask);
    if (!too_small) {
      return std::max(1, count);
    }
  }
  return 1;
}

int available_cpu_count() {
  const int cpus = affinity_cpu_count();
  const std::optional<int> limit = cgroup_cpu_limit();
  return std::max(1, limit ? std::min(cpus, *limit) : cpus);
}

std::optional<int> parse_threads_variable(const char* value) {
  if (value == nullptr || *value == '\0') {
    return std::nullopt;
  }
  const std::optional<int64_t> threads = parse_int64(value);
  if (!threads || *threads < 1 || *threads > kMaxThreads) {
    throw InvalidArgument("BOWSTRING_THREADS must be a whole number of threads from 1 to " +
                          std::to_string(kMaxThreads) + ", not '" + value + "'");
  }
  return static_cast<int>(*threads);
}

int default_thread_count() {
  const std::optional<int> threads = parse_threads_variable(std::getenv("BOWSTRING_THREADS"));
  return threads ? *threads : available_cpu_count();
}

}  // namespace bowstring
