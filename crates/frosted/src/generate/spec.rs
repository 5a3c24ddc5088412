//! What to generate: the request as the command line gives it (anything
//! left out is drawn from the seed) and the spec it resolves to, with the
//! `:comment` lines that name both.

use super::rng::Rng;

/// A mechanic a level may use.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mechanic {
    Toppers,
    /// The `:targets` flag (and targets that accept any donut).
    TargetsFlag,
    Merges,
    Splitters,
    Bumpers,
    /// Preset belts (some of the hidden layout's belts, kept).
    Preset,
    Teleporters,
    /// Teleporters with several outs.
    MultiOut,
    Crossovers,
    AnySources,
    /// Blocks (`#`) on cells the hidden layout does not use.
    Walls,
}

impl Mechanic {
    pub const ALL: [Mechanic; 11] = [
        Mechanic::Toppers,
        Mechanic::TargetsFlag,
        Mechanic::Merges,
        Mechanic::Splitters,
        Mechanic::Bumpers,
        Mechanic::Preset,
        Mechanic::Teleporters,
        Mechanic::MultiOut,
        Mechanic::Crossovers,
        Mechanic::AnySources,
        Mechanic::Walls,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mechanic::Toppers => "toppers",
            Mechanic::TargetsFlag => "targets",
            Mechanic::Merges => "merges",
            Mechanic::Splitters => "splitters",
            Mechanic::Bumpers => "bumpers",
            Mechanic::Preset => "preset",
            Mechanic::Teleporters => "teleporters",
            Mechanic::MultiOut => "multi-out",
            Mechanic::Crossovers => "crossovers",
            Mechanic::AnySources => "any-sources",
            Mechanic::Walls => "walls",
        }
    }

    /// The mechanic named `name`, or an error listing the names.
    pub fn parse(name: &str) -> Result<Mechanic, String> {
        Mechanic::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Mechanic::ALL.iter().map(|m| m.name()).collect();
                format!("unknown mechanic `{name}` (known: {})", names.join(", "))
            })
    }
}

/// The shape of the hidden layout.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Style {
    /// Waypoints anywhere, as most of the game's levels.
    Game,
    /// Toppers far apart (the farthest of several waypoints): long layouts.
    Far,
    /// A lone source through a teleporter into a splitter, then toppers.
    TeleportSplit,
    /// A teleporter with several outs, each into a splitter.
    MultiOut,
}

impl Style {
    pub const ALL: [Style; 4] = [
        Style::Game,
        Style::Far,
        Style::TeleportSplit,
        Style::MultiOut,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Style::Game => "game",
            Style::Far => "far",
            Style::TeleportSplit => "teleport-split",
            Style::MultiOut => "multi-out",
        }
    }

    pub fn parse(name: &str) -> Result<Style, String> {
        Style::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| {
                format!("unknown style `{name}` (known: game, far, teleport-split, multi-out)")
            })
    }

    /// The mechanics the style needs.
    fn needs(self) -> &'static [Mechanic] {
        match self {
            Style::Game => &[],
            Style::Far => &[Mechanic::Toppers],
            Style::TeleportSplit => &[
                Mechanic::Toppers,
                Mechanic::Teleporters,
                Mechanic::Splitters,
            ],
            Style::MultiOut => &[
                Mechanic::Teleporters,
                Mechanic::MultiOut,
                Mechanic::Splitters,
            ],
        }
    }
}

/// What the user asked for; `None` fields are drawn from the seed.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub seed: u64,
    pub size: Option<(usize, usize)>,
    pub mechanics: Option<Vec<Mechanic>>,
    pub sources: Option<usize>,
    pub targets: Option<usize>,
    pub style: Option<Style>,
    /// Keep only levels whose minimal layout is unique (named in the comment).
    pub unique: bool,
}

/// The settings one level is built with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    pub width: usize,
    pub height: usize,
    /// Sorted, no repeats.
    pub mechanics: Vec<Mechanic>,
    pub sources: usize,
    /// The number of targets asked for, if it was.
    pub targets: Option<usize>,
    /// The number of targets aimed at.
    pub want_targets: usize,
    pub style: Style,
}

/// The smallest and largest sides a level may have.
pub const MIN_SIDE: usize = 3;
pub const MAX_SIDE: usize = 16;

impl Spec {
    pub fn has(&self, m: Mechanic) -> bool {
        self.mechanics.contains(&m)
    }

    /// The settings in a few words.
    pub fn describe(&self) -> String {
        let names: Vec<&str> = self.mechanics.iter().map(|m| m.name()).collect();
        format!(
            "{}x{}, style {}, mechanics {}, {} source{}, {} target{}",
            self.width,
            self.height,
            self.style.name(),
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(",")
            },
            self.sources,
            if self.sources == 1 { "" } else { "s" },
            self.want_targets,
            if self.want_targets == 1 { "" } else { "s" },
        )
    }

    /// The `:comment` lines: the command that makes the level again, and
    /// the settings it resolved to.
    pub fn comments(&self, r: &Request, attempt: usize) -> Vec<String> {
        let mut cmd = format!("frosted generate --seed {}", r.seed);
        if let Some((w, h)) = r.size {
            cmd += &format!(" --size {w}x{h}");
        }
        if let Some(s) = r.style {
            cmd += &format!(" --style {}", s.name());
        }
        if let Some(m) = &r.mechanics {
            let names: Vec<&str> = m.iter().map(|m| m.name()).collect();
            cmd += &format!(" --mechanics {}", names.join(","));
        }
        if let Some(n) = r.sources {
            cmd += &format!(" --sources {n}");
        }
        if let Some(n) = r.targets {
            cmd += &format!(" --targets {n}");
        }
        if r.unique {
            cmd += " --unique";
        }
        vec![
            cmd,
            format!("settings: {}; attempt {attempt}", self.describe()),
        ]
    }
}

impl Request {
    /// The spec: the request's settings, the rest drawn from the seed;
    /// errors for settings no level can meet.
    pub fn resolve(&self) -> Result<Spec, String> {
        let mut rng = Rng::new(self.seed);
        let style = self.style.unwrap_or(Style::Game);
        let (width, height) = self.size.unwrap_or_else(|| default_size(style, &mut rng));
        for side in [width, height] {
            if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
                return Err(format!(
                    "--size: sides must be {MIN_SIDE} to {MAX_SIDE} cells, not {side}"
                ));
            }
        }
        let mut mechanics = match &self.mechanics {
            Some(m) => m.clone(),
            None => default_mechanics(&mut rng),
        };
        mechanics.extend_from_slice(style.needs());
        if mechanics.contains(&Mechanic::MultiOut) {
            mechanics.push(Mechanic::Teleporters);
        }
        mechanics.sort();
        mechanics.dedup();
        let fits = |n: usize| n * 6 <= width * height;
        let mut sources = self
            .sources
            .unwrap_or_else(|| default_sources(style, &mut rng));
        while self.sources.is_none() && sources > 1 && !fits(sources * 2) {
            sources -= 1;
        }
        let has = |m| mechanics.contains(&m);
        let branches = has(Mechanic::Splitters)
            || has(Mechanic::MultiOut)
            || has(Mechanic::Bumpers) && has(Mechanic::AnySources);
        let want_targets = match self.targets {
            Some(n) => n,
            None => {
                let mut n =
                    default_targets(style, sources, branches, has(Mechanic::Merges), &mut rng);
                while n > sources && !fits(sources + n) {
                    n -= 1;
                }
                n
            }
        };
        let spec = Spec {
            width,
            height,
            mechanics,
            sources,
            targets: self.targets,
            want_targets,
            style,
        };
        spec.check()?;
        Ok(spec)
    }
}

impl Spec {
    /// Errors for counts no level of this size and mechanics can have.
    fn check(&self) -> Result<(), String> {
        let cells = self.width * self.height;
        if self.sources == 0 || self.want_targets == 0 {
            return Err("a level needs at least one source and one target".into());
        }
        if (self.sources + self.want_targets) * 6 > cells {
            return Err(format!(
                "{} sources and {} targets do not fit on {}x{}",
                self.sources, self.want_targets, self.width, self.height
            ));
        }
        let branches = self.has(Mechanic::Splitters)
            || self.has(Mechanic::MultiOut)
            || self.has(Mechanic::Bumpers);
        if self.want_targets > self.sources && !branches {
            return Err("more targets than sources needs splitters, multi-out or bumpers".into());
        }
        if self.want_targets < self.sources && !self.has(Mechanic::Merges) {
            return Err("fewer targets than sources needs merges".into());
        }
        Ok(())
    }
}

/// A size in the game's range for the style.
fn default_size(style: Style, rng: &mut Rng) -> (usize, usize) {
    match style {
        Style::Game => (rng.range(5, 13), rng.range(5, 9)),
        Style::Far => (rng.range(10, 13), rng.range(7, 9)),
        Style::TeleportSplit => (rng.range(7, 12), rng.range(5, 9)),
        Style::MultiOut => (rng.range(8, 13), rng.range(6, 9)),
    }
}

/// Toppers, and each other mechanic one time in three.
fn default_mechanics(rng: &mut Rng) -> Vec<Mechanic> {
    let mut m = vec![Mechanic::Toppers];
    for x in &Mechanic::ALL[1..] {
        if rng.chance(1, 3) {
            m.push(*x);
        }
    }
    m
}

fn default_sources(style: Style, rng: &mut Rng) -> usize {
    match style {
        Style::Far => 2,
        Style::TeleportSplit | Style::MultiOut => 1,
        Style::Game => [1, 1, 1, 1, 2, 2, 2, 3][rng.below(8)],
    }
}

fn default_targets(
    style: Style,
    sources: usize,
    branches: bool,
    merges: bool,
    rng: &mut Rng,
) -> usize {
    let extra = match (style, branches) {
        (Style::TeleportSplit, _) => 1,
        (Style::MultiOut, _) => rng.range(3, 5),
        (_, true) => rng.range(0, 2),
        (_, false) => 0,
    };
    let fewer = usize::from(merges && sources > 1 && rng.chance(1, 2));
    sources + extra - fewer
}
