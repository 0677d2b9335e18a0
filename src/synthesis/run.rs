//! What every method needs while it runs: the backend, its options, the deadline, and where
//! progress goes.

use mechsynth_solvers::{BackendKind, LpBackend, SolveOptions};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A sink for one-line progress messages (the CLI prints them on stderr).
pub type ProgressSink = Arc<dyn Fn(&str) + Send + Sync>;

/// The backend and budget of one solve.
pub struct Run<'a> {
    /// The LP backend.
    pub backend: &'a dyn LpBackend,
    options: SolveOptions,
    deadline: Instant,
    progress: Option<ProgressSink>,
    /// Set when a method found that its next step would end past the deadline.
    spent: AtomicBool,
}

impl<'a> Run<'a> {
    /// A run that must end by `options.time_limit_seconds` from now.
    pub fn new(
        backend: &'a dyn LpBackend,
        options: SolveOptions,
        progress: Option<ProgressSink>,
    ) -> Self {
        let limit = Duration::try_from_secs_f64(options.time_limit_seconds.max(0.0))
            .unwrap_or(Duration::MAX / 4);
        let now = Instant::now();
        let deadline = now
            .checked_add(limit)
            .unwrap_or(now + Duration::from_secs(1 << 40));
        Run {
            backend,
            options,
            deadline,
            progress,
            spent: AtomicBool::new(false),
        }
    }

    /// Backend options whose time limit is what remains of the run (at least 1 ms).
    pub fn backend_options(&self) -> SolveOptions {
        let remaining = self
            .deadline
            .saturating_duration_since(Instant::now())
            .as_secs_f64();
        SolveOptions {
            time_limit_seconds: remaining.max(1e-3),
            ..self.options.clone()
        }
    }

    /// Whether the time limit has passed, or a method declared the time spent (see
    /// [`Run::spend`]).
    pub fn expired(&self) -> bool {
        self.spent.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }

    /// Declare the time spent: a method that stops because its next step would end past the
    /// deadline calls this, so that the methods after it do not start (they would overrun).
    pub fn spend(&self) {
        self.spent.store(true, Ordering::Relaxed);
    }

    /// The deadline.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Send a progress message.
    pub fn progress(&self, message: &str) {
        if let Some(p) = &self.progress {
            p(message);
        }
    }

    /// The progress sink, for reporting from parallel work.
    pub fn progress_sink(&self) -> Option<ProgressSink> {
        self.progress.clone()
    }
}

/// The kind of `backend`, so that threads can make their own (backends are not `Sync`).
pub(crate) fn backend_kind(backend: &dyn LpBackend) -> Option<BackendKind> {
    [BackendKind::Clarabel, BackendKind::Highs]
        .into_iter()
        .find(|k| k.name() == backend.name())
}
