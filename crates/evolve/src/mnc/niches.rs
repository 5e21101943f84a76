//! Counting niches: organisms in order of fitness, each joining the first niche whose leader
//! is within the radius (phenotypic distance), or else founding a new niche as its leader.

/// A niche: its leader (the fittest member) and members (population indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Niche {
    /// Population index of the leader, the niche's fittest member.
    pub leader: usize,
    /// Population indices of all members, the leader included.
    pub members: Vec<usize>,
}

/// Niches of the population, leaders' niches in order of fitness. `order` lists the
/// population fittest first.
pub fn find_niches(
    order: &[usize],
    radius: f64,
    distance: &dyn Fn(usize, usize) -> f64,
) -> Vec<Niche> {
    let mut niches: Vec<Niche> = Vec::new();
    for &i in order {
        match niches.iter_mut().find(|n| distance(n.leader, i) <= radius) {
            Some(n) => n.members.push(i),
            None => niches.push(Niche {
                leader: i,
                members: vec![i],
            }),
        }
    }
    niches
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clusters_form_around_the_fittest() {
        let x: [f64; 6] = [0.0, 1.0, 50.0, 2.0, 51.0, 200.0];
        let dist = |a: usize, b: usize| (x[a] - x[b]).abs();
        let order = [2, 0, 1, 3, 4, 5];
        let niches = find_niches(&order, 5.0, &dist);
        assert_eq!(niches.len(), 3);
        assert_eq!(
            niches[0],
            Niche {
                leader: 2,
                members: vec![2, 4]
            }
        );
        assert_eq!(
            niches[1],
            Niche {
                leader: 0,
                members: vec![0, 1, 3]
            }
        );
        assert_eq!(niches[2].leader, 5);
        assert_eq!(find_niches(&order, 1000.0, &dist).len(), 1);
        assert_eq!(find_niches(&order, 0.0, &dist).len(), 6);
    }
}
