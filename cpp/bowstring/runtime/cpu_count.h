#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace bowstring {

// How many threads the process should run CPU-bound work on: the CPUs it may actually use
// (its affinity mask, limited by cgroup CPU quotas), unless `BOWSTRING_THREADS` says otherwise.
// The parsers are pure functions of the kernel files' text, so tests can feed them anything.

/// Where a cgroup hierarchy is mounted (from /proc/self/mountinfo): `root` is the cgroup path
/// that appears at `mount_point` (not "/" when a container sees only its own subtree).
struct CgroupMount {
  std::string root;
  std::string mount_point;
};

/// The cgroup v2 mount and the cgroup v1 mount that holds the `cpu` controller, where present.
struct CgroupMounts {
  std::optional<CgroupMount> v2;
  std::optional<CgroupMount> v1_cpu;
};
CgroupMounts parse_mountinfo(std::string_view mountinfo);

/// The process's cgroup paths (from /proc/self/cgroup): the unified (v2) one, line "0::PATH",
/// and the v1 one of the `cpu` controller, line "ID:...,cpu,...:PATH".
struct CgroupPaths {
  std::optional<std::string> v2;
  std::optional<std::string> v1_cpu;
};
CgroupPaths parse_proc_self_cgroup(std::string_view proc_self_cgroup);

/// CPUs allowed by a cgroup v2 `cpu.max` ("QUOTA PERIOD", or "max PERIOD" for no limit):
/// quota / period rounded up, at least 1. Nothing when unlimited or unreadable.
std::optional<int> parse_cgroup_v2_cpu_max(std::string_view cpu_max);

/// CPUs allowed by cgroup v1's `cpu.cfs_quota_us` (-1: no limit) and `cpu.cfs_period_us`, as
/// `parse_cgroup_v2_cpu_max` computes them.
std::optional<int> parse_cgroup_v1_cpu_quota(std::string_view quota_us, std::string_view period_us);

/// Reads a whole file; nothing when it does not exist or cannot be read.
using FileReader = std::function<std::optional<std::string>(const std::string& path)>;
std::optional<std::string> read_small_file(const std::string& path);

/// The tightest CPU quota on the process's cgroups, v2 and v1, and on their ancestors (a quota
/// on a parent cgroup limits its children too), read through `read` from /proc/self/cgroup,
/// /proc/self/mountinfo and the quota files. Nothing when no quota applies.
std::optional<int> cgroup_cpu_limit(const FileReader& read = read_small_file);

/// CPUs in the calling thread's affinity mask (`sched_getaffinity`), at least 1.
int affinity_cpu_count();

/// CPUs this process may use: the affinity count limited by the cgroup quota, at least 1.
int available_cpu_count();

/// The value of `BOWSTRING_THREADS` as a thread count: nothing when unset or empty; a positive
/// integer up to `kMaxThreads`; anything else throws `InvalidArgument` naming the variable and
/// the value.
constexpr int kMaxThreads = 4096;
std::optional<int> parse_threads_variable(const char* value);

/// The default pool's size: `BOWSTRING_THREADS` when set, else `available_cpu_count()`.
int default_thread_count();

}  // namespace bowstring
