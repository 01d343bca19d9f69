import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import tournaments.seasons.models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_table_talk"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='League',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('slug', models.SlugField(max_length=80, unique=True, verbose_name='slug')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'league',
                'verbose_name_plural': 'leagues',
                'ordering': ['name'],
            },
        ),
        migrations.CreateModel(
            name='Season',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=160, verbose_name='name')),
                ('starts_on', models.DateField(verbose_name='first day')),
                ('ends_on', models.DateField(verbose_name='last day')),
                ('selection', models.CharField(choices=[('picked', 'the tournaments picked'), ('dates', 'every tournament in the dates')], default='dates', max_length=16)),
                ('points', models.JSONField(default=tournaments.seasons.models.default_points)),
                ('participation', models.FloatField(default=0, verbose_name='participation points')),
                ('best_of', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='best evenings counted')),
                ('qualified', models.PositiveIntegerField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('projected_at', models.DateTimeField(blank=True, null=True)),
                ('club', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='seasons', to='tournaments.club')),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('final', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tournaments.tournament')),
                ('league', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='seasons', to='tournaments.league')),
            ],
            options={
                'verbose_name': 'season',
                'verbose_name_plural': 'seasons',
                'ordering': ['-starts_on', 'name'],
            },
        ),
        migrations.CreateModel(
            name='SeasonLine',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveIntegerField()),
                ('rank', models.PositiveIntegerField()),
                ('player', models.CharField(max_length=100)),
                ('name', models.CharField(max_length=64)),
                ('total', models.FloatField()),
                ('played', models.PositiveIntegerField()),
                ('evenings', models.JSONField(default=list)),
                ('tiebreak', models.CharField(blank=True, default='', max_length=16)),
                ('tiebreak_detail', models.JSONField(blank=True, null=True)),
                ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='lines', to='tournaments.season')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['season', 'position'],
            },
        ),
        migrations.CreateModel(
            name='SeasonResult',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('player', models.CharField(max_length=100)),
                ('name', models.CharField(max_length=64)),
                ('place', models.PositiveIntegerField()),
                ('points', models.FloatField()),
                ('entry', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.entry')),
                ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='results', to='tournaments.season')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.tournament')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['season', 'tournament', 'place', 'player'],
            },
        ),
        migrations.CreateModel(
            name='SeasonTournament',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='picked', to='tournaments.season')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.tournament')),
            ],
            options={
                'ordering': ['season', 'tournament'],
            },
        ),
        migrations.CreateModel(
            name='LeagueClub',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('invited', 'invited'), ('accepted', 'member'), ('declined', 'declined')], default='invited', max_length=16)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('answered_at', models.DateTimeField(blank=True, null=True)),
                ('answered_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='leagues', to='tournaments.club')),
                ('invited_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='clubs', to='tournaments.league')),
            ],
            options={
                'ordering': ['league', 'club'],
                'constraints': [models.UniqueConstraint(fields=('league', 'club'), name='tournaments_leagueclub_once')],
            },
        ),
        migrations.CreateModel(
            name='LeagueRole',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('owner', 'owner'), ('organiser', 'organiser'), ('referee', 'referee')], max_length=16, verbose_name='role')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='roles', to='tournaments.league')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='league_roles', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['league', 'user', 'role'],
                'constraints': [models.UniqueConstraint(fields=('league', 'user', 'role'), name='tournaments_leaguerole_once')],
            },
        ),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('club__isnull', False), ('league__isnull', True)), models.Q(('club__isnull', True), ('league__isnull', False)), _connector='OR'), name='tournaments_season_one_owner'),
        ),
        migrations.AddConstraint(
            model_name='seasonline',
            constraint=models.UniqueConstraint(fields=('season', 'position'), name='tournaments_seasonline_position'),
        ),
        migrations.AddConstraint(
            model_name='seasonline',
            constraint=models.UniqueConstraint(fields=('season', 'player'), name='tournaments_seasonline_player'),
        ),
        migrations.AddConstraint(
            model_name='seasonresult',
            constraint=models.UniqueConstraint(fields=('season', 'tournament', 'player'), name='tournaments_seasonresult_once'),
        ),
        migrations.AddConstraint(
            model_name='seasontournament',
            constraint=models.UniqueConstraint(fields=('season', 'tournament'), name='tournaments_seasontournament_once'),
        ),
    ]
